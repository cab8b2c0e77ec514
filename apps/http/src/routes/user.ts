import { type AuthDeps, failures, logout, reauthenticate, updateUser } from "@authsvc/core";
import { Hono } from "hono";
import * as v from "valibot";
import type { AppEnv } from "../http/app-env.js";
import { defined, filledText, nullableMetadata, parseBody, text, unwrap } from "../http/body.js";
import { requireUser } from "../http/middleware/auth.js";
import { readJsonObject } from "../http/middleware/json-body.js";
import { pkceFields, pkceOf } from "../http/pkce.js";
import { userJson } from "../http/presenters/user-json.js";

export const SCOPES = ["global", "local", "others"] as const;
type Scope = (typeof SCOPES)[number];

export const UpdateUserBody = v.object({
  password: text,
  nonce: text,
  email: filledText,
  phone: filledText,
  data: nullableMetadata,
  ...pkceFields,
});

/** `GET /user`, `PUT /user`, `POST /logout`: endpoints of the signed-in user. */
export const userRoutes = (deps: AuthDeps) => {
  const auth = requireUser(deps);
  return new Hono<AppEnv>()
    .get("/user", requireUser(deps, { refusal: "validation_failed" }), async (c) => {
      // Read with the identities while authenticating: no second query.
      return c.json(userJson(c.get("auth").user));
    })
    .put("/user", auth, async (c) => {
      const { code_challenge, code_challenge_method, ...body } = parseBody(
        UpdateUserBody,
        await readJsonObject(c),
      );
      const { user, sessionId } = c.get("auth");
      const input = {
        userId: user.id,
        sessionId,
        ...body,
        ...pkceOf(defined({ code_challenge, code_challenge_method })),
        ...defined({ redirectTo: c.req.query("redirect_to") }),
      };
      const updated = unwrap(await updateUser(c.get("deps"), input));
      return c.json(userJson(updated));
    })
    .get("/reauthenticate", auth, async (c) => {
      const sent = unwrap(await reauthenticate(c.get("deps"), { userId: c.get("auth").user.id }));
      return c.json(sent.messageId ? { message_id: sent.messageId } : {});
    })
    .post("/logout", auth, async (c) => {
      const scope = c.req.query("scope") ?? "global";
      if (!SCOPES.includes(scope as Scope)) {
        throw failures.logoutScopeInvalid(scope);
      }
      const { user, sessionId } = c.get("auth");
      unwrap(await logout(c.get("deps"), { userId: user.id, sessionId, scope: scope as Scope }));
      return c.body(null, 204);
    });
};
