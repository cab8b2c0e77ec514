import { type AuthDeps, signUp } from "@authsvc/core";
import { Hono } from "hono";
import type { AppEnv } from "../app-env.js";
import { optionalMetadata, optionalString, unwrap } from "../body-fields.js";
import { readJsonObject } from "../middleware/json-body.js";
import { sessionJson } from "../presenters/session-json.js";
import { userJson } from "../presenters/user-json.js";

/** `POST /signup`: email or phone with a password, or neither for an anonymous sign-in. */
export const signupRoutes = (deps: AuthDeps) =>
  new Hono<AppEnv>().post("/signup", async (c) => {
    const body = await readJsonObject(c);
    const email = optionalString(body, "email") || undefined;
    const phone = optionalString(body, "phone") || undefined;
    const password = optionalString(body, "password");
    const data = optionalMetadata(body, "data");
    const redirectTo = c.req.query("redirect_to");
    const result = unwrap(
      await signUp(deps, {
        ...(email !== undefined ? { email } : {}),
        ...(phone !== undefined ? { phone } : {}),
        ...(password !== undefined ? { password } : {}),
        ...(data !== undefined ? { data } : {}),
        ...(redirectTo !== undefined ? { redirectTo } : {}),
      }),
    );
    return c.json(result.kind === "session" ? sessionJson(result.tokens) : userJson(result.user));
  });
