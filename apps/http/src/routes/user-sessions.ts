import { type AuthDeps, listUserSessions, revokeUserSession, type SessionView } from "@authsvc/core";
import { Hono } from "hono";
import type { AppEnv } from "../http/app-env.js";
import { unwrap } from "../http/body.js";
import { requireUser } from "../http/middleware/auth.js";

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

/**
 * `GET /user/sessions` and `DELETE /user/sessions/{id}`: the signed-in user's own sessions, and ending
 * one of them. Not in the reference's interface (docs/http-api.md, "Extensions").
 */
export const userSessionRoutes = (deps: AuthDeps) => {
  const auth = requireUser(deps);
  return new Hono<AppEnv>()
    .get("/user/sessions", auth, async (c) => {
      const { user, sessionId } = c.get("auth");
      const views = unwrap(
        await listUserSessions(c.get("deps"), { userId: user.id, currentSessionId: sessionId }),
      );
      return c.json({ sessions: views.map(sessionViewJson) });
    })
    .delete("/user/sessions/:session_id", auth, async (c) => {
      const userId = c.get("auth").user.id;
      const sessionId = (c.req.param("session_id") ?? "").toLowerCase();
      unwrap(await revokeUserSession(c.get("deps"), { userId, sessionId }));
      return c.json({});
    });
};
