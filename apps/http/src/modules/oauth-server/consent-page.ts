import { createHash, randomBytes, timingSafeEqual } from "node:crypto";
import { memoryLimiterStore } from "@authsvc/adapters";
import {
  type AuthDeps,
  authorizationDetails,
  type CaptchaVerifier,
  checkCaptcha,
  decideConsent,
  scopesOf,
  signInWithPassword,
} from "@authsvc/core";
import { type Context, Hono } from "hono";
import { getCookie, setCookie } from "hono/cookie";
import type { AppEnv } from "../../http/app-env.js";
import { clientAddress } from "../../http/client-address.js";
import { waitAside } from "../../http/flow-control/index.js";
import { limitPerClient, limitWindow, type RateLimits } from "../../http/middleware/rate-limit.js";
import { consentPage, problemPage, signInPage } from "./consent-page-html.js";

const PATH = "/oauth/consent";
const CSRF_COOKIE = "authsvc-oauth-consent";
/** Where a captcha widget leaves its token in a form (hCaptcha's, Turnstile's), or a page's own field. */
const CAPTCHA_FIELDS = ["captcha_token", "h-captcha-response", "cf-turnstile-response"] as const;
/** How long the signed-in step's approval stays usable. */
const CONSENT_TTL_S = 600;

/**
 * The page's path as the browser asked for it, which the form cookie is scoped to: under a base path
 * (`/auth/v1/oauth/consent`, http/base-path.ts) the forms post there, and a cookie scoped to
 * `/oauth/consent` would never come back with them. Anything else than plain path characters: the
 * unprefixed path (a cookie attribute must not carry `;`).
 */
function pagePath(c: Context<AppEnv>): string {
  const asked = new URL(c.req.url).pathname;
  return asked.endsWith(PATH) && /^[A-Za-z0-9/._~%-]+$/.test(asked) ? asked : PATH;
}

/** Equal secrets, compared in constant time (as digests, so that lengths tell nothing either). */
const sameSecret = (a: string, b: string) =>
  timingSafeEqual(createHash("sha256").update(a).digest(), createHash("sha256").update(b).digest());

/**
 * The built-in sign-in and consent page (embedded mode without `OAUTH_SERVER_AUTHORIZATION_PATH`), so
 * that a development server is a working provider at once. Forms only, no script. Two guards against
 * cross-site requests: a random value in a SameSite=Strict cookie that each form repeats (double
 * submit), and, for the decision, a proof of the sign-in bound to the request, the user and a time (a
 * keyed MAC of the server), so that no one but the browser that signed in can approve.
 */
export const consentPageRoutes = (
  deps: AuthDeps,
  limits: RateLimits | undefined,
  captcha?: CaptchaVerifier | undefined,
) => {
  const on = () => deps.settings.oauthServer.enabled && deps.settings.oauthServer.builtInConsentPage;
  const proof = (authorizationId: string, userId: string, expires: number) =>
    deps.tokens.flowBinding(`oauth-consent:${authorizationId}:${userId}:${expires}`);
  const html = (c: Context<AppEnv>, body: string, status: 200 | 400 | 404 = 200) => {
    c.header("Cache-Control", "no-store");
    c.header("X-Frame-Options", "DENY");
    c.header(
      "Content-Security-Policy",
      "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'",
    );
    return c.html(body, status);
  };
  const csrfOk = (c: Context<AppEnv>, form: Record<string, string>) => {
    const cookie = getCookie(c, CSRF_COOKIE) ?? "";
    return cookie.length >= 32 && sameSecret(cookie, form.csrf ?? "");
  };
  const readForm = async (c: Context<AppEnv>) => {
    const params = new URLSearchParams(await c.req.text());
    return Object.fromEntries(params) as Record<string, string>;
  };
  const signIn = (c: Context<AppEnv>, authorizationId: string, csrf: string, problem?: string) =>
    html(
      c,
      // Relative actions: the page works under any base path (`/auth/v1/oauth/consent`).
      signInPage({
        action: problem ? "sign-in" : "consent/sign-in",
        fields: { authorization_id: authorizationId, csrf },
        problem,
      }),
      problem ? 400 : 200,
    );
  // A password sign-in as `POST /token`'s: counted with it (one count per client), so that guesses
  // cannot be spread over both.
  const guessLimit = limits?.header
    ? limitPerClient(
        (limits.limiter ?? memoryLimiterStore().limiter)(limitWindow("token", limits.tokenPer5Min)),
      )
    : undefined;
  /** The captcha `POST /token` asks (middleware/captcha.ts), read from the form: why it fails, or null. */
  const captchaProblem = async (c: Context<AppEnv>, form: Record<string, string>) => {
    if (captcha === undefined) return null;
    const token = CAPTCHA_FIELDS.map((field) => form[field]).find((value) => value);
    const check = () => checkCaptcha({ captcha }, { token, remoteIp: clientAddress(c) });
    // The provider's answer is not this process's work: the request's slot goes on meanwhile.
    const checked = await waitAside(c, check);
    return checked.ok ? null : checked.error.message;
  };

  const app = new Hono<AppEnv>();
  app.use(`${PATH}/*`, async (c, next) => (on() ? next() : html(c, problemPage("Not found"), 404)));
  app.use(PATH, async (c, next) => (on() ? next() : html(c, problemPage("Not found"), 404)));
  if (guessLimit) app.use(`${PATH}/sign-in`, guessLimit);
  return app
    .get(PATH, (c) => {
      const authorizationId = c.req.query("authorization_id") ?? "";
      if (!authorizationId) return html(c, problemPage("The link is missing its authorization_id."), 400);
      const csrf = randomBytes(32).toString("base64url");
      setCookie(c, CSRF_COOKIE, csrf, {
        httpOnly: true,
        sameSite: "Strict",
        path: pagePath(c),
        maxAge: CONSENT_TTL_S,
      });
      return signIn(c, authorizationId, csrf);
    })
    .post(`${PATH}/sign-in`, async (c) => {
      const form = await readForm(c);
      const authorizationId = form.authorization_id ?? "";
      if (!csrfOk(c, form)) return html(c, problemPage("This form has expired. Open the link again."), 400);
      const refused = await captchaProblem(c, form);
      if (refused !== null) return signIn(c, authorizationId, form.csrf ?? "", refused);
      const run = c.get("deps");
      const signedIn = await signInWithPassword(run, {
        email: form.email ?? "",
        password: form.password ?? "",
      });
      if (!signedIn.ok) return signIn(c, authorizationId, form.csrf ?? "", signedIn.error.message);
      const { user } = signedIn.value;
      const found = await authorizationDetails(run, { authorizationId, userId: user.id });
      if (!found.ok) return html(c, problemPage(found.error.message), 400);
      if (found.value.kind === "redirect") return c.redirect(found.value.redirectUrl, 302);
      const { client, authorization } = found.value;
      const expires = Math.floor(Date.now() / 1000) + CONSENT_TTL_S;
      const fields = {
        authorization_id: authorizationId,
        csrf: form.csrf ?? "",
        proof: `${user.id}.${expires}.${proof(authorizationId, user.id, expires)}`,
      };
      return html(
        c,
        consentPage({
          action: "decision",
          fields,
          clientName: client.name ?? client.id,
          clientUri: client.uri,
          userEmail: user.email ?? "",
          scopes: scopesOf(authorization.scope),
          resource: authorization.resource,
        }),
      );
    })
    .post(`${PATH}/decision`, async (c) => {
      const form = await readForm(c);
      if (!csrfOk(c, form)) return html(c, problemPage("This form has expired. Open the link again."), 400);
      const authorizationId = form.authorization_id ?? "";
      const [userId = "", expires = "", mac = ""] = (form.proof ?? "").split(".");
      const until = Number(expires);
      const valid =
        Number.isInteger(until) &&
        until >= Math.floor(Date.now() / 1000) &&
        sameSecret(mac, proof(authorizationId, userId, until));
      if (!valid) return html(c, problemPage("This form has expired. Open the link again."), 400);
      const decided = await decideConsent(c.get("deps"), {
        authorizationId,
        userId,
        action: form.action ?? "",
      });
      if (!decided.ok) return html(c, problemPage(decided.error.message), 400);
      return c.redirect(decided.value.redirectUrl, 302);
    });
};
