import {
  adminEndSessions,
  adminFindUsers,
  adminGetUser,
  adminListUsers,
  adminUpdateUser,
} from "@authsvc/core/admin";
import { listUserSessions } from "@authsvc/core/sessions";
import type { Context } from "hono";
import type { AppEnv } from "../../http/app-env.js";
import { redirect } from "../../http/operation.js";
import { pageParam } from "../../http/pagination.js";
import { formBody, string } from "../hosted-pages/shared.js";
import { endpoint, type ModuleEndpoint } from "../module.js";
import { htmlPage } from "../oauth-server/oauth.openapi-schemas.js";
import { type Admin, asAdmin, GUARDED, to, whenOn } from "./guard.js";
import { html, problemPage } from "./layout.js";
import { BAN_DURATIONS, userPage, usersPage } from "./pages.js";
import { TEXTS } from "./texts.js";

const PER_PAGE = 50;
const CSRF = { ...string, description: "The session's form value." };
const userIdPath = [{ name: "user_id", description: "The user's id." }];
const userIdOf = (c: Context<AppEnv>) => (c.req.param("user_id") ?? "").toLowerCase();

/** Who the audit log names for a change made in the console: the administrator, not a bare role. */
const actorOf = (admin: Admin) => ({
  role: "admin_console",
  id: admin.user.id,
  username: admin.user.email ?? admin.user.phone ?? admin.user.id,
});

/** The user's page, or the page naming why there is none. */
async function userAnswer(c: Context<AppEnv>, admin: Admin, userId: string, problem?: string) {
  const deps = c.get("deps");
  const found = await adminGetUser(deps, { userId });
  if (!found.ok)
    return html(c, problemPage(admin.root, TEXTS.not_found, found.error.message, admin.header), 404);
  const sessions = await listUserSessions(deps, { userId, currentSessionId: null });
  const view = {
    user: found.value,
    sessions: sessions.ok ? sessions.value : [],
    now: deps.clock.now(),
    problem,
  };
  return html(c, userPage(admin.root, admin.header, view), problem ? 400 : 200);
}

/** What a form that changes a user answers: back to the user's page, or the page with its problem. */
const USER_CHANGE_ANSWERS = {
  ...GUARDED,
  303: redirect("Done: back to the user's page."),
  400: htmlPage("The user's page with the problem."),
  404: htmlPage("No such user, or the console is off."),
};

/** The users page, a user's page, and the changes made there: a ban, its end, sessions ended. */
export const userEndpoints: readonly ModuleEndpoint[] = [
  endpoint(
    {
      method: "get",
      path: "/admin/console/users",
      summary: "The console's users page: the admin list (newest first), or a search, 50 a page.",
      access: "public",
      query: [
        { name: "q", description: "A user id, a phone number, or text in the email or full name." },
        { name: "page", description: "The page, from 1." },
      ],
      responses: { 200: htmlPage("A page of users."), 400: htmlPage("A page out of range."), ...GUARDED },
    },
    (ctx) =>
      whenOn(ctx, [
        asAdmin(ctx, async (c, admin) => {
          const deps = c.get("deps");
          const query = (c.req.query("q") ?? "").trim();
          const page = pageParam(c.req.query("page"), 1);
          const listed = query
            ? await adminFindUsers(deps, { query, page, perPage: PER_PAGE })
            : await adminListUsers(deps, { page, perPage: PER_PAGE });
          if (!listed.ok)
            return html(
              c,
              problemPage(admin.root, TEXTS.problem_title, listed.error.message, admin.header),
              400,
            );
          const view = { ...listed.value, query, now: deps.clock.now() };
          return html(c, usersPage(admin.root, admin.header, view));
        }),
      ]),
  ),
  endpoint(
    {
      method: "get",
      path: "/admin/console/users/{user_id}",
      summary: "The console's page of one user: its identities, sessions and ban.",
      access: "public",
      pathParameters: userIdPath,
      responses: {
        200: htmlPage("The user's page."),
        ...GUARDED,
        404: htmlPage("No such user, or the console is off."),
      },
    },
    (ctx) => whenOn(ctx, [asAdmin(ctx, async (c, admin) => userAnswer(c, admin, userIdOf(c)))]),
  ),
  endpoint(
    {
      method: "post",
      path: "/admin/console/users/{user_id}/ban",
      summary:
        "Bans the user for a duration, or lifts the ban (`none`), as `PUT /admin/users/{id}`'s `ban_duration`.",
      access: "public",
      pathParameters: userIdPath,
      body: formBody({
        csrf: CSRF,
        duration: { ...string, description: `One of ${BAN_DURATIONS.join(", ")}, or none.` },
      }),
      responses: USER_CHANGE_ANSWERS,
    },
    (ctx) =>
      whenOn(ctx, [
        asAdmin(
          ctx,
          async (c, admin, form) => {
            const userId = userIdOf(c);
            const duration = form.duration ?? "";
            if (duration !== "none" && !(BAN_DURATIONS as readonly string[]).includes(duration))
              return userAnswer(c, admin, userId, `Unknown ban duration: ${duration}`);
            const changed = await adminUpdateUser(c.get("deps"), {
              actor: actorOf(admin),
              userId,
              fields: { banDuration: duration },
            });
            if (!changed.ok) return userAnswer(c, admin, userId, changed.error.message);
            return to(c, `/users/${userId}`);
          },
          { form: true },
        ),
      ]),
  ),
  endpoint(
    {
      method: "post",
      path: "/admin/console/users/{user_id}/sessions/revoke",
      summary:
        "Ends one of the user's sessions, or all of them (`all`): their refresh tokens are refused from then on.",
      access: "public",
      pathParameters: userIdPath,
      body: formBody({ csrf: CSRF, session_id: { ...string, description: "A session's id, or all." } }),
      responses: USER_CHANGE_ANSWERS,
    },
    (ctx) =>
      whenOn(ctx, [
        asAdmin(
          ctx,
          async (c, admin, form) => {
            const userId = userIdOf(c);
            const which = form.session_id ?? "";
            const ended = await adminEndSessions(c.get("deps"), {
              actor: actorOf(admin),
              userId,
              ...(which === "all" ? {} : { sessionId: which }),
            });
            if (!ended.ok) return userAnswer(c, admin, userId, ended.error.message);
            // The administrator's own console session may be among them: the next page signs in again.
            return to(c, `/users/${userId}`);
          },
          { form: true },
        ),
      ]),
  ),
];
