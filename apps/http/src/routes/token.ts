import { type AuthDeps, refreshSession, signInWithPassword } from "@authsvc/core";
import { Hono } from "hono";
import type { AppEnv } from "../app-env.js";
import { optionalString, unwrap } from "../body-fields.js";
import { httpError } from "../errors.js";
import { readJsonObject } from "../middleware/json-body.js";
import { sessionJson } from "../presenters/session-json.js";

/** `POST /token?grant_type=password|refresh_token`. */
export const tokenRoutes = (deps: AuthDeps) =>
  new Hono<AppEnv>().post("/token", async (c) => {
    const grantType = c.req.query("grant_type");
    const body = await readJsonObject(c);
    if (grantType === "password") {
      const email = optionalString(body, "email") || undefined;
      const phone = optionalString(body, "phone") || undefined;
      const password = optionalString(body, "password") ?? "";
      const tokens = unwrap(
        await signInWithPassword(deps, {
          ...(email !== undefined ? { email } : {}),
          ...(phone !== undefined ? { phone } : {}),
          password,
        }),
      );
      return c.json(sessionJson(tokens));
    }
    if (grantType === "refresh_token") {
      const refreshToken = optionalString(body, "refresh_token");
      // The reference answers a missing refresh token with an OAuth-style error body.
      if (!refreshToken)
        return c.json({ error: "invalid_request", error_description: "refresh_token required" }, 400);
      return c.json(sessionJson(unwrap(await refreshSession(deps, { refreshToken }))));
    }
    throw httpError(400, "invalid_credentials", "unsupported_grant_type");
  });
