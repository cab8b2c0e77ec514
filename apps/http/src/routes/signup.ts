import { signUp } from "@authsvc/core";
import { Hono } from "hono";
import * as v from "valibot";
import type { AppEnv } from "../http/app-env.js";
import { defined, filledText, metadata, parseBody, text, unwrap } from "../http/body.js";
import { readJsonObject } from "../http/middleware/json-body.js";
import { pkceFields, pkceOf } from "../http/pkce.js";
import { sessionJson } from "../http/presenters/session-json.js";
import { userJson } from "../http/presenters/user-json.js";

export const SignupBody = v.object({
  email: filledText,
  phone: filledText,
  password: text,
  data: metadata,
  ...pkceFields,
});

/** `POST /signup`: email or phone with a password, or neither for an anonymous sign-in. */
export const signupRoutes = () =>
  new Hono<AppEnv>().post("/signup", async (c) => {
    const { code_challenge, code_challenge_method, ...body } = parseBody(SignupBody, await readJsonObject(c));
    const pkce = pkceOf({ ...defined({ code_challenge, code_challenge_method }) });
    const input = { ...body, ...pkce, ...defined({ redirectTo: c.req.query("redirect_to") }) };
    const result = unwrap(await signUp(c.get("deps"), input));
    return c.json(result.kind === "session" ? sessionJson(result.tokens) : userJson(result.user));
  });
