import { randomBytes } from "node:crypto";
import { challengeFactor, verifyFactor } from "@authsvc/core/mfa";
import { logout, signInWithPassword } from "@authsvc/core/sessions";
import type { Context } from "hono";
import { getCookie, setCookie } from "hono/cookie";
import type { AppEnv } from "../../http/app-env.js";
import { clientAddress } from "../../http/client-address.js";
import { redirect } from "../../http/operation.js";
import { captchaProblem, formBody, readForm, sameSecret, string } from "../hosted-pages/shared.js";
import { endpoint, type ModuleContext, type ModuleEndpoint } from "../module.js";
import { htmlPage } from "../oauth-server/oauth.openapi-schemas.js";
import { GUARDED, to, whenOn } from "./guard.js";
import { html, problemPage, type Widget } from "./layout.js";
import { mfaPage, signInPage } from "./pages.js";
import {
  cookieOptions,
  csrfHolds,
  csrfOf,
  dropSession,
  FORM_COOKIE,
  FORM_TTL_S,
  isAdministrator,
  keepSession,
  rootOf,
  sessionIdOf,
  standingOf,
  totpFactorOf,
} from "./session.js";
import { TEXTS } from "./texts.js";

const CSRF = { ...string, description: "The form's value (sign-in: its cookie's; later: the session's)." };
const OFF = htmlPage("The console is off (`ADMIN_CONSOLE_ENABLED`).");

/** The captcha widget the sign-in form shows: with a captcha on and `HOSTED_PAGES_CAPTCHA_SITE_KEY` set. */
const widgetOf = (ctx: ModuleContext): Widget | undefined => {
  const { security, hostedPages } = ctx.config;
  return security.captcha.enabled && hostedPages.captchaSiteKey
    ? { provider: security.captcha.provider, siteKey: hostedPages.captchaSiteKey }
    : undefined;
};

/** The sign-in form with a fresh double-submit value in its cookie. */
function signInAnswer(ctx: ModuleContext, c: Context<AppEnv>, email: string, problem?: string) {
  const csrf = randomBytes(32).toString("base64url");
  setCookie(c, FORM_COOKIE, csrf, cookieOptions(c, FORM_TTL_S));
  const widget = widgetOf(ctx);
  return html(c, signInPage(rootOf(c), csrf, email, problem, widget), problem ? 400 : 200, widget);
}

/** The code's form, with a new challenge of the administrator's TOTP factor. */
async function mfaAnswer(ctx: ModuleContext, c: Context<AppEnv>, problem?: string) {
  const root = rootOf(c);
  const standing = await standingOf(ctx, c);
  if (standing.kind !== "needs-mfa") return to(c, standing.kind === "signed-out" ? "/sign-in" : "/users");
  const deps = c.get("deps");
  const { user, session, factorId } = standing;
  const challenged = await challengeFactor(deps, { user, factorId, ipAddress: clientAddress(c) ?? "" });
  if (!challenged.ok) return html(c, problemPage(root, TEXTS.problem_title, challenged.error.message), 400);
  keepSession(c, ctx.auth, session.id, ctx.config.adminConsole.idleTimeoutMs);
  const fields = {
    csrf: csrfOf(ctx.auth, session.id),
    factor_id: factorId,
    challenge_id: challenged.value.id,
  };
  return html(c, mfaPage(root, fields, problem), problem ? 400 : 200);
}

/** The console's entry, its sign-in (password, then TOTP when the administrator has one) and sign-out. */
export const signInEndpoints: readonly ModuleEndpoint[] = [
  endpoint(
    {
      method: "get",
      path: "/admin/console",
      summary: "The admin console: to its users page, or to its sign-in page.",
      access: "public",
      responses: { 303: redirect("To the users page (which signs in first when needed)."), 404: OFF },
    },
    (ctx) => whenOn(ctx, [async (c) => to(c, "/users")]),
  ),
  endpoint(
    {
      method: "get",
      path: "/admin/console/sign-in",
      summary: "The admin console's sign-in form (email and password).",
      access: "public",
      responses: { 200: htmlPage("The sign-in form."), 404: OFF },
    },
    (ctx) => whenOn(ctx, [async (c) => signInAnswer(ctx, c, "")]),
  ),
  endpoint(
    {
      method: "post",
      path: "/admin/console/sign-in",
      summary:
        "Signs an administrator in with email and password (as `POST /token?grant_type=password`), then to the second factor or the users page.",
      access: "public",
      limited: true,
      body: formBody({ csrf: CSRF, email: string, password: string }),
      responses: {
        303: redirect("Signed in: to the second factor's page, or to the users page."),
        400: htmlPage(
          "The sign-in form again with the problem (the same for any wrong address or password).",
        ),
        403: htmlPage(
          "A user the configuration does not name an administrator, or a form without its value.",
        ),
        404: OFF,
      },
    },
    (ctx) =>
      whenOn(ctx, [
        async (c) => {
          const root = rootOf(c);
          const form = await readForm(c);
          const cookie = getCookie(c, FORM_COOKIE) ?? "";
          if (cookie.length < 32 || !sameSecret(cookie, form.csrf ?? ""))
            return html(c, problemPage(root, TEXTS.problem_title, TEXTS.form_expired), 403);
          const deps = c.get("deps");
          const email = form.email ?? "";
          // The captcha `POST /token` asks, when one is on (its token in the widget's field).
          const captchaRefused = await captchaProblem(ctx.captcha, c, form);
          if (captchaRefused !== null) return signInAnswer(ctx, c, email, captchaRefused);
          const signedIn = await signInWithPassword(deps, { email, password: form.password ?? "" });
          if (!signedIn.ok) return signInAnswer(ctx, c, email, signedIn.error.message);
          const { user, session } = signedIn.value;
          const config = ctx.config.adminConsole;
          const refused = !isAdministrator(config, user)
            ? TEXTS.refused_intro
            : config.requireMfa && (await totpFactorOf(deps, user.id)) === null
              ? TEXTS.mfa_required
              : null;
          if (refused !== null) {
            // The session just started is of no use to anyone: it ends at once.
            await logout(deps, { userId: user.id, sessionId: session.id, scope: "local" });
            return html(c, problemPage(root, TEXTS.refused_title, refused), 403);
          }
          keepSession(c, ctx.auth, session.id, config.idleTimeoutMs);
          return to(c, "/users");
        },
      ]),
    // Counted with `POST /token`: password guesses cannot be spread over both.
    { limit: { name: "token", per5Min: "token" } },
  ),
  endpoint(
    {
      method: "get",
      path: "/admin/console/mfa",
      summary:
        "The second factor's form (a new TOTP challenge) for an administrator signed in with a password.",
      access: "public",
      responses: {
        200: htmlPage("The code's form."),
        303: GUARDED[303],
        400: htmlPage("A challenge refused."),
        404: OFF,
      },
    },
    (ctx) => whenOn(ctx, [async (c) => mfaAnswer(ctx, c)]),
    { limit: { name: "factor_challenge", per5Min: "mfa" } },
  ),
  endpoint(
    {
      method: "post",
      path: "/admin/console/mfa",
      summary: "Verifies the administrator's TOTP code: the console session becomes aal2.",
      access: "public",
      limited: true,
      body: formBody({ csrf: CSRF, factor_id: string, challenge_id: string, code: string }),
      responses: {
        303: redirect("Verified: to the users page; not signed in: to the sign-in page."),
        400: htmlPage("The code's form again with the problem."),
        403: htmlPage("A form without the session's value."),
        404: OFF,
      },
    },
    (ctx) =>
      whenOn(ctx, [
        async (c) => {
          const root = rootOf(c);
          const standing = await standingOf(ctx, c);
          if (standing.kind !== "needs-mfa")
            return to(c, standing.kind === "signed-out" ? "/sign-in" : "/users");
          const form = await readForm(c);
          if (!csrfHolds(ctx.auth, standing.session.id, form))
            return html(c, problemPage(root, TEXTS.problem_title, TEXTS.form_expired), 403);
          const verified = await verifyFactor(c.get("deps"), {
            user: standing.user,
            sessionId: standing.session.id,
            factorId: standing.factorId,
            challengeId: form.challenge_id ?? "",
            code: (form.code ?? "").trim(),
            ipAddress: clientAddress(c) ?? "",
          });
          if (!verified.ok) return mfaAnswer(ctx, c, verified.error.message);
          keepSession(c, ctx.auth, standing.session.id, ctx.config.adminConsole.idleTimeoutMs);
          return to(c, "/users");
        },
      ]),
    // Counted with `POST /factors/{id}/verify`: code guesses cannot be spread over both.
    { limit: { name: "factor_verify", per5Min: "mfa" } },
  ),
  endpoint(
    {
      method: "post",
      path: "/admin/console/sign-out",
      summary: "Signs the administrator out: the console's session (an authsvc session) ends.",
      access: "public",
      body: formBody({ csrf: CSRF }),
      responses: { ...GUARDED, 303: redirect("To the sign-in page.") },
    },
    (ctx) =>
      whenOn(ctx, [
        async (c) => {
          const deps = c.get("deps");
          const sessionId = sessionIdOf(c, ctx.auth, ctx.config.adminConsole.idleTimeoutMs);
          const form = await readForm(c);
          if (sessionId === null) {
            dropSession(c);
            return to(c, "/sign-in");
          }
          if (!csrfHolds(ctx.auth, sessionId, form))
            return html(c, problemPage(rootOf(c), TEXTS.problem_title, TEXTS.form_expired), 403);
          const session = await deps.store.sessions.find(sessionId);
          if (session !== null) await logout(deps, { userId: session.userId, sessionId, scope: "local" });
          dropSession(c);
          return to(c, "/sign-in");
        },
      ]),
  ),
];
