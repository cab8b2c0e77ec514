import { type AuthDeps, exchangeAuthCode, refreshSession, signInWithPassword } from "@authsvc/core";
import { Hono } from "hono";
import * as v from "valibot";
import type { AppEnv } from "../http/app-env.js";
import { filledText, parseBody, text, unwrap } from "../http/body.js";
import { httpError } from "../http/errors.js";
import { logLogin } from "../http/login-log.js";
import { readJsonObject } from "../http/middleware/json-body.js";
import { sessionJson } from "../http/presenters/session-json.js";

const PasswordGrant = v.object({ email: filledText, phone: filledText, password: text });
const RefreshGrant = v.object({ refresh_token: filledText });
const PkceGrant = v.object({ auth_code: text, code_verifier: text });

/** `POST /token?grant_type=password|refresh_token|pkce`. */
export const tokenRoutes = (deps: AuthDeps) =>
  new Hono<AppEnv>().post("/token", async (c) => {
    const grantType = c.req.query("grant_type");
    const json = await readJsonObject(c);
    if (grantType === "password") {
      const { password = "", ...address } = parseBody(PasswordGrant, json);
      return c.json(sessionJson(unwrap(await signInWithPassword(deps, { ...address, password }))));
    }
    if (grantType === "refresh_token") {
      const { refresh_token: refreshToken } = parseBody(RefreshGrant, json);
      // The reference answers a missing refresh token with an OAuth-style error body.
      if (!refreshToken)
        return c.json({ error: "invalid_request", error_description: "refresh_token required" }, 400);
      return c.json(sessionJson(unwrap(await refreshSession(deps, { refreshToken }))));
    }
    if (grantType === "pkce") {
      const { auth_code: authCode = "", code_verifier: codeVerifier = "" } = parseBody(PkceGrant, json);
      const exchanged = unwrap(await exchangeAuthCode(deps, { authCode, codeVerifier }));
      logLogin(c, { method: "pkce", userId: exchanged.tokens.user.id, provider: exchanged.providerType });
      return c.json({
        ...sessionJson(exchanged.tokens),
        // The provider's tokens of an external sign-in, as the reference adds them.
        ...(exchanged.providerAccessToken ? { provider_token: exchanged.providerAccessToken } : {}),
        ...(exchanged.providerRefreshToken ? { provider_refresh_token: exchanged.providerRefreshToken } : {}),
      });
    }
    throw httpError(400, "invalid_credentials", "unsupported_grant_type");
  });
