import { type AuthDeps, logout, reauthenticate, updateUser } from "@authsvc/core";
import { Hono } from "hono";
import type { AppEnv } from "../app-env.js";
import { optionalMetadata, optionalString, unwrap } from "../body-fields.js";
import { httpError } from "../errors.js";
import { requireUser } from "../middleware/auth.js";
import { readJsonObject } from "../middleware/json-body.js";
import { userJson } from "../presenters/user-json.js";

const SCOPES = ["global", "local", "others"] as const;
type Scope = (typeof SCOPES)[number];

/** `GET /user`, `PUT /user`, `POST /logout`: endpoints of the signed-in user. */
export const userRoutes = (deps: AuthDeps) => {
  const auth = requireUser(deps);
  return new Hono<AppEnv>()
    .get("/user", auth, async (c) => {
      // Read with the identities while authenticating: no second query.
      return c.json(userJson(c.get("auth").user));
    })
    .put("/user", auth, async (c) => {
      const body = await readJsonObject(c);
      const { user, sessionId } = c.get("auth");
      const data = body.data === null ? null : optionalMetadata(body, "data");
      const fields = {
        password: optionalString(body, "password"),
        nonce: optionalString(body, "nonce"),
        email: optionalString(body, "email") || undefined,
        phone: optionalString(body, "phone") || undefined,
        redirectTo: c.req.query("redirect_to"),
      };
      const defined = Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== undefined));
      const updated = unwrap(
        await updateUser(deps, {
          userId: user.id,
          sessionId,
          ...(data !== undefined ? { data } : {}),
          ...defined,
        }),
      );
      return c.json(userJson(updated));
    })
    .get("/reauthenticate", auth, async (c) => {
      const sent = unwrap(await reauthenticate(deps, { userId: c.get("auth").user.id }));
      return c.json(sent.messageId ? { message_id: sent.messageId } : {});
    })
    .post("/logout", auth, async (c) => {
      const scope = c.req.query("scope") ?? "global";
      if (!SCOPES.includes(scope as Scope)) {
        throw httpError(400, "validation_failed", `Unsupported logout scope "${scope}"`);
      }
      const { user, sessionId } = c.get("auth");
      unwrap(await logout(deps, { userId: user.id, sessionId, scope: scope as Scope }));
      return c.body(null, 204);
    });
};
