import type { User } from "@authsvc/core/accounts";
import type { Session } from "@authsvc/core/sessions";
import type { Context, MiddlewareHandler } from "hono";
import type { AppEnv } from "../../http/app-env.js";
import { redirect } from "../../http/operation.js";
import { readForm } from "../hosted-pages/shared.js";
import type { ModuleContext } from "../module.js";
import { htmlPage } from "../oauth-server/oauth.openapi-schemas.js";
import { type Header, html, problemPage } from "./layout.js";
import { csrfHolds, csrfOf, dropSession, keepSession, rootOf, standingOf } from "./session.js";
import { TEXTS } from "./texts.js";

/** The administrator a page is made for, and what its header and forms carry. */
export interface Admin {
  readonly user: User;
  readonly session: Session;
  readonly header: Header;
  readonly root: string;
}

/** The answers every signed-in page may give besides its own. */
export const GUARDED = {
  303: redirect("Not signed in (or idle too long): to the sign-in page; a second factor due: to its page."),
  403: htmlPage("Not an administrator, or a form without the session's CSRF value."),
  404: htmlPage("The console is off (`ADMIN_CONSOLE_ENABLED`)."),
};

/** Sends the browser to `path` under the console, with a 303 (a posted form is never posted again). */
export const to = (c: Context<AppEnv>, path: string) => {
  c.header("Cache-Control", "no-store");
  return c.redirect(`${rootOf(c)}${path}`, 303);
};

/**
 * A signed-in page's handler: the console session's standing checked (session.ts), seen again, and
 * for a form (`form: true`) its CSRF value checked against the session before `step` sees anything.
 */
export function asAdmin(
  ctx: ModuleContext,
  step: (c: Context<AppEnv>, admin: Admin, form: Record<string, string>) => Promise<Response>,
  options: { readonly form?: boolean } = {},
): MiddlewareHandler<AppEnv> {
  const config = ctx.config.adminConsole;
  return async (c) => {
    const root = rootOf(c);
    const standing = await standingOf(ctx, c);
    if (standing.kind === "signed-out") {
      dropSession(c);
      return to(c, "/sign-in");
    }
    if (standing.kind === "needs-mfa") return to(c, "/mfa");
    if (standing.kind === "refused" || standing.kind === "mfa-missing") {
      const message = standing.kind === "refused" ? TEXTS.refused_intro : TEXTS.mfa_required;
      return html(c, problemPage(root, TEXTS.refused_title, message), 403);
    }
    const { user, session } = standing;
    const csrf = csrfOf(ctx.auth, session.id);
    const form = options.form ? await readForm(c) : {};
    if (options.form && !csrfHolds(ctx.auth, session.id, form))
      return html(c, problemPage(root, TEXTS.problem_title, TEXTS.form_expired), 403);
    keepSession(c, ctx.auth, session.id, config.idleTimeoutMs);
    return step(c, { user, session, root, header: { root, email: user.email ?? user.id, csrf } }, form);
  };
}

/** What every path of the console answers while it is off: its not-found page (HTML, as described). */
const off: MiddlewareHandler<AppEnv> = async (c) =>
  html(c, problemPage(rootOf(c), TEXTS.not_found, TEXTS.console_off), 404);

/** The console's endpoints work only when it is on; off, each answers the not-found page (404). */
export const whenOn = (ctx: ModuleContext, handlers: MiddlewareHandler<AppEnv>[]) =>
  ctx.config.adminConsole.enabled ? handlers : [off];
