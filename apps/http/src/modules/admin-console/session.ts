/**
 * The console's own session: a cookie naming an authsvc session (the one its password sign-in
 * started) and when the administrator was last seen, with the server's MAC over both. Each request
 * checks the MAC, the idle time, that the session still exists (a sign-out, a revocation or a ban ends
 * it), that its user is still an administrator, and its assurance level; then it is seen again.
 */
import type { AuthDeps } from "@authsvc/core";
import { isBanned, type User } from "@authsvc/core/accounts";
import type { Session } from "@authsvc/core/sessions";
import type { Context } from "hono";
import { deleteCookie, getCookie, setCookie } from "hono/cookie";
import type { AppEnv } from "../../http/app-env.js";
import { sameSecret } from "../hosted-pages/shared.js";
import type { ModuleContext } from "../module.js";
import type { AdminConsoleConfig } from "./section.js";

export const PATH = "/admin/console";
export const SESSION_COOKIE = "authsvc-admin-console";
/** The sign-in form's double-submit value, before there is a session to bind a form to. */
export const FORM_COOKIE = "authsvc-admin-console-form";
export const FORM_TTL_S = 600;

/**
 * The console's path as the browser asked for it (under a base path, `/auth/v1/admin/console`), which
 * its cookies are scoped to; anything but plain path characters: the unprefixed path.
 */
export function rootOf(c: Context<AppEnv>): string {
  const asked = new URL(c.req.url).pathname;
  const at = asked.indexOf(PATH);
  const root = at < 0 ? PATH : asked.slice(0, at + PATH.length);
  return /^[A-Za-z0-9/._~%-]+$/.test(root) ? root : PATH;
}

/** Secure everywhere but a browser's own machine, where plain http is how development runs. */
const secureFor = (c: Context<AppEnv>) => {
  const { hostname, protocol } = new URL(c.req.url);
  const local = hostname === "localhost" || hostname === "127.0.0.1" || hostname === "[::1]";
  return protocol === "https:" || !local;
};

export const cookieOptions = (c: Context<AppEnv>, maxAge?: number) => ({
  httpOnly: true,
  secure: secureFor(c),
  sameSite: "Strict" as const,
  path: rootOf(c),
  ...(maxAge === undefined ? {} : { maxAge }),
});

const mac = (auth: AuthDeps, sessionId: string, seenAt: number) =>
  auth.tokens.flowBinding(`admin-console:${sessionId}:${seenAt}`);

/** Starts (or renews) the console session for authsvc session `sessionId`, seen now. */
export function keepSession(c: Context<AppEnv>, auth: AuthDeps, sessionId: string, idleMs: number) {
  const seenAt = Math.floor(Date.now() / 1000);
  const value = `${sessionId}.${seenAt}.${mac(auth, sessionId, seenAt)}`;
  setCookie(c, SESSION_COOKIE, value, cookieOptions(c, Math.ceil(idleMs / 1000)));
}

export const dropSession = (c: Context<AppEnv>) => deleteCookie(c, SESSION_COOKIE, cookieOptions(c));

/** The authsvc session id the cookie names, when its MAC holds and it was seen within the idle time. */
export function sessionIdOf(c: Context<AppEnv>, auth: AuthDeps, idleMs: number): string | null {
  const [sessionId = "", seen = "", given = ""] = (getCookie(c, SESSION_COOKIE) ?? "").split(".");
  const seenAt = Number(seen);
  if (!sessionId || !Number.isInteger(seenAt)) return null;
  if (!sameSecret(given, mac(auth, sessionId, seenAt))) return null;
  return Date.now() - seenAt * 1000 <= idleMs ? sessionId : null;
}

/** The session's form value: every form of a signed-in page carries it (bound to the session). */
export const csrfOf = (auth: AuthDeps, sessionId: string) =>
  auth.tokens.flowBinding(`admin-console-csrf:${sessionId}`);

export const csrfHolds = (auth: AuthDeps, sessionId: string, form: Record<string, string>) =>
  sameSecret(form.csrf ?? "", csrfOf(auth, sessionId));

/** Whether the configuration names `user` an administrator: by confirmed email or by role. */
export function isAdministrator(config: AdminConsoleConfig, user: User): boolean {
  const email = user.email?.toLowerCase();
  const byEmail = email !== undefined && user.emailConfirmedAt !== null && config.adminEmails.includes(email);
  return byEmail || config.adminRoles.includes(user.role);
}

/** Whether the administrator must pass a second factor: they have a verified TOTP one, or the console asks. */
export async function totpFactorOf(deps: AuthDeps, userId: string) {
  const factors = await deps.store.factors.listByUser(userId);
  return factors.find((f) => f.factorType === "totp" && f.status === "verified") ?? null;
}

/** Where a console request stands. */
export type Standing =
  | { readonly kind: "signed-out" }
  | { readonly kind: "refused"; readonly user: User; readonly session: Session }
  | { readonly kind: "needs-mfa"; readonly user: User; readonly session: Session; readonly factorId: string }
  | { readonly kind: "mfa-missing"; readonly user: User; readonly session: Session }
  | { readonly kind: "admin"; readonly user: User; readonly session: Session };

/** What the console's cookie is worth now (see the module's comment). */
export async function standingOf(ctx: ModuleContext, c: Context<AppEnv>): Promise<Standing> {
  const config = ctx.config.adminConsole;
  const deps = c.get("deps");
  const sessionId = sessionIdOf(c, ctx.auth, config.idleTimeoutMs);
  if (sessionId === null) return { kind: "signed-out" };
  const session = await deps.store.sessions.find(sessionId);
  if (session === null) return { kind: "signed-out" };
  const user = await deps.store.users.findById(session.userId);
  if (user === null || isBanned(user, deps.clock.now())) return { kind: "signed-out" };
  if (!isAdministrator(config, user)) return { kind: "refused", user, session };
  if (session.aal !== "aal2") {
    const factor = await totpFactorOf(deps, user.id);
    if (factor !== null) return { kind: "needs-mfa", user, session, factorId: factor.id };
    if (config.requireMfa) return { kind: "mfa-missing", user, session };
  }
  return { kind: "admin", user, session };
}
