import {
  authenticate,
  exchangeAuthCode,
  failures,
  refreshSession,
  signInWithIdToken,
  signInWithPassword,
} from "@authsvc/core";
import { Hono } from "hono";
import * as v from "valibot";
import type { AppEnv } from "../http/app-env.js";
import { filledText, flag, parseBody, text, unwrap } from "../http/body.js";
import { logLogin } from "../http/login-log.js";
import { bearerToken } from "../http/middleware/auth.js";
import { readJsonObject } from "../http/middleware/json-body.js";
import { sessionJson } from "../http/presenters/session-json.js";

const PasswordGrant = v.object({ email: filledText, phone: filledText, password: text });
const RefreshGrant = v.object({ refresh_token: filledText });
const PkceGrant = v.object({ auth_code: text, code_verifier: text });
const IdTokenGrant = v.object({
  id_token: filledText,
  access_token: text,
  nonce: filledText,
  provider: filledText,
  client_id: text,
  issuer: text,
  link_identity: flag,
});

/** ID-token refusals the reference answers as OAuth errors (`{error, error_description}`, 400). */
const OAUTH_ERRORS: Readonly<Record<string, string>> = {
  badIdToken: "invalid request",
  idTokenAudienceUnacceptable: "invalid request",
  idTokenNonceBothOrNeither: "invalid request",
  idTokenNonceMismatch: "invalid nonce",
};

/** `POST /token?grant_type=password|refresh_token|pkce`. */
export const tokenRoutes = () =>
  new Hono<AppEnv>().post("/token", async (c) => {
    const grantType = c.req.query("grant_type");
    const json = await readJsonObject(c);
    if (grantType === "password") {
      const { password = "", ...address } = parseBody(PasswordGrant, json);
      return c.json(sessionJson(unwrap(await signInWithPassword(c.get("deps"), { ...address, password }))));
    }
    if (grantType === "refresh_token") {
      const { refresh_token: refreshToken } = parseBody(RefreshGrant, json);
      // The reference answers a missing refresh token with an OAuth-style error body.
      if (!refreshToken)
        return c.json({ error: "invalid_request", error_description: "refresh_token required" }, 400);
      return c.json(sessionJson(unwrap(await refreshSession(c.get("deps"), { refreshToken }))));
    }
    if (grantType === "pkce") {
      const { auth_code: authCode = "", code_verifier: codeVerifier = "" } = parseBody(PkceGrant, json);
      const exchanged = unwrap(await exchangeAuthCode(c.get("deps"), { authCode, codeVerifier }));
      logLogin(c, { method: "pkce", userId: exchanged.tokens.user.id, provider: exchanged.providerType });
      return c.json({
        ...sessionJson(exchanged.tokens),
        // The provider's tokens of an external sign-in, as the reference adds them.
        ...(exchanged.providerAccessToken ? { provider_token: exchanged.providerAccessToken } : {}),
        ...(exchanged.providerRefreshToken ? { provider_refresh_token: exchanged.providerRefreshToken } : {}),
      });
    }
    if (grantType === "id_token") {
      const body = parseBody(IdTokenGrant, json);
      const oauthError = (error: string, description: string) =>
        c.json({ error, error_description: description }, 400);
      if (!body.id_token) return oauthError("invalid request", "id_token required");
      if (!body.provider) return oauthError("invalid request", "provider or client_id and issuer required");
      let linkTargetId: string | undefined;
      let linkSessionId: string | null | undefined;
      if (body.link_identity) {
        const token = bearerToken(c.req.header("authorization"));
        if (!token)
          return oauthError("invalid request", "Linking requires a valid user access token in Authorization");
        const caller = unwrap(await authenticate(c.get("deps"), { bearerToken: token }));
        linkTargetId = caller.user.id;
        linkSessionId = caller.sessionId;
      }
      const result = await signInWithIdToken(c.get("deps"), {
        provider: body.provider,
        idToken: body.id_token,
        nonce: body.nonce,
        linkTargetId,
        linkSessionId,
      });
      if (!result.ok) {
        const word = OAUTH_ERRORS[result.error.failure];
        if (word !== undefined) return oauthError(word, result.error.message);
        throw result.error;
      }
      logLogin(c, { method: "oidc", userId: result.value.user.id, provider: body.provider });
      return c.json(sessionJson(result.value));
    }
    throw failures.grantTypeUnsupported();
  });
