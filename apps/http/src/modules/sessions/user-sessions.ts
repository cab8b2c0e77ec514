import { listUserSessions, revokeUserSession, type SessionView } from "@authsvc/core/sessions";
import { unwrap } from "../../http/body.js";
import { requireUser } from "../../http/middleware/auth.js";
import { ref } from "../../http/operation.js";
import { closed } from "../../openapi/schemas.js";
import { endpoint, type ModuleContext, type ModuleEndpoint } from "../module.js";

const iso = (date: Date | null) => (date === null ? null : date.toISOString());

/** A session as its owner sees it: when and how it began, its limits; never a token. */
const sessionViewJson = ({ session, current, notAfter, active }: SessionView) => ({
  id: session.id,
  aal: session.aal,
  amr: session.amr,
  created_at: session.createdAt.toISOString(),
  updated_at: session.updatedAt.toISOString(),
  refreshed_at: iso(session.refreshedAt),
  not_after: iso(notAfter),
  current,
  active,
});

const signedIn = ({ auth }: ModuleContext) => requireUser(auth);

/**
 * `GET /user/sessions` and `DELETE /user/sessions/{session_id}`: the signed-in user's own sessions, and
 * ending one of them. Not in the reference's interface (docs/http-api.md, "Extensions").
 */
export const userSessionEndpoints: readonly ModuleEndpoint[] = [
  endpoint(
    {
      method: "get",
      path: "/user/sessions",
      summary: "The signed-in user's own sessions (an extension of the reference's interface).",
      access: "user",
      responses: {
        200: {
          description: "Every session of the user.",
          body: closed({ sessions: { type: "array", items: ref("UserSession") } }),
        },
      },
    },
    (ctx) => [
      signedIn(ctx),
      async (c) => {
        const { user, sessionId } = c.get("auth");
        const views = unwrap(
          await listUserSessions(c.get("deps"), { userId: user.id, currentSessionId: sessionId }),
        );
        return c.json({ sessions: views.map(sessionViewJson) });
      },
    ],
  ),
  endpoint(
    {
      method: "delete",
      path: "/user/sessions/{session_id}",
      summary: "Ends one of the signed-in user's sessions.",
      access: "user",
      pathParameters: [{ name: "session_id", description: "The session's id." }],
      responses: { 200: { description: "Ended.", body: ref("Empty") } },
      errors: [404],
    },
    (ctx) => [
      signedIn(ctx),
      async (c) => {
        const userId = c.get("auth").user.id;
        const sessionId = (c.req.param("session_id") ?? "").toLowerCase();
        unwrap(await revokeUserSession(c.get("deps"), { userId, sessionId }));
        return c.json({});
      },
    ],
  ),
];
