import { createHash, timingSafeEqual } from "node:crypto";
import type { AuthDeps } from "@authsvc/core";
import { type CaptchaVerifier, checkCaptcha } from "@authsvc/core/guards";
import type { Context, MiddlewareHandler } from "hono";
import { getCookie } from "hono/cookie";
import type { AppEnv } from "../../http/app-env.js";
import { clientAddress } from "../../http/client-address.js";
import { waitAside } from "../../http/flow-control/index.js";
import { perClientLimit, type RateLimits } from "../../http/middleware/rate-limit.js";
import { jsonObject } from "../../http/operation.js";
import type { ModuleContext } from "../module.js";
import { htmlPage } from "../oauth-server/oauth.openapi-schemas.js";
import { contentSecurityPolicy, type Look, stylesheet } from "./layout.js";
import { problemPage } from "./pages.js";
import { catalogue, chooseLocale, ENGLISH, type Texts } from "./texts.js";

/** What every hosted page shares: its path, looks, headers, form guards and step proofs. */
export const PATH = "/oauth/consent";
export const CSRF_COOKIE = "authsvc-oauth-consent";
/** Where a captcha widget leaves its token in a form (hCaptcha's, Turnstile's), or a page's own field. */
const CAPTCHA_FIELDS = ["captcha_token", "h-captcha-response", "cf-turnstile-response"] as const;
/** How long each step's form (and its proof) stays usable. */
export const STEP_TTL_S = 600;

export const string = { type: "string" } as const;
export const formBody = (properties: Record<string, { type: string; description?: string }>) => ({
  schema: jsonObject(properties),
  contentTypes: ["application/x-www-form-urlencoded"],
});
export const PROBLEM = htmlPage("A page naming the problem (a missing or expired form, a refused request).");
export const OFF = htmlPage(
  "The pages are off (`OAUTH_SERVER_ENABLED`, `OAUTH_SERVER_AUTHORIZATION_PATH` set).",
);
export const CSRF = { ...string, description: "The form's value, repeated from its SameSite=Strict cookie." };
export const LOCALE_FIELD = { ...string, description: "The page's language, carried from step to step." };

/** What every handler of the pages needs: the looks by locale, the captcha, the proofs' key. */
export interface Pages {
  readonly ctx: ModuleContext;
  readonly texts: Readonly<Record<string, Texts>>;
  readonly stylesheet: string;
}

export function pagesOf(ctx: ModuleContext): Pages {
  const { hostedPages } = ctx.config;
  return {
    ctx,
    texts: catalogue(hostedPages.texts),
    stylesheet: stylesheet({ ...hostedPages, logoUrl: hostedPages.logoUrl }),
  };
}

/**
 * The pages' path as the browser asked for it, which the form cookie is scoped to and every form and
 * file is reached under: under a base path (`/auth/v1/oauth/consent`, http/base-path.ts) the forms
 * post there, and a cookie scoped to `/oauth/consent` would never come back with them. Anything else
 * than plain path characters: the unprefixed path (a cookie attribute must not carry `;`).
 */
export function rootOf(c: Context<AppEnv>): string {
  const asked = new URL(c.req.url).pathname;
  const at = asked.indexOf(PATH);
  const root = at < 0 ? PATH : asked.slice(0, at + PATH.length);
  return /^[A-Za-z0-9/._~%-]+$/.test(root) ? root : PATH;
}

/** The look of a page answering `c`, in `locale` when the pages have it, else the browser's. */
export function lookOf(pages: Pages, c: Context<AppEnv>, locale?: string | undefined): Look {
  const { hostedPages, security } = pages.ctx.config;
  const chosen =
    locale && pages.texts[locale]
      ? locale
      : chooseLocale(
          Object.keys(pages.texts),
          c.req.query("ui_locales"),
          c.req.header("accept-language"),
          hostedPages.defaultLocale,
        );
  const captcha =
    security.captcha.enabled && hostedPages.captchaSiteKey
      ? { provider: security.captcha.provider, siteKey: hostedPages.captchaSiteKey }
      : undefined;
  return {
    theme: hostedPages,
    texts: pages.texts[chosen] ?? ENGLISH,
    locale: chosen,
    root: rootOf(c),
    captcha,
  };
}

/** Equal secrets, compared in constant time (as digests, so that lengths tell nothing either). */
export const sameSecret = (a: string, b: string) =>
  timingSafeEqual(createHash("sha256").update(a).digest(), createHash("sha256").update(b).digest());

/** What a proof is bound to: the request, and the browser (its form value, equal to its cookie's). */
export interface Bound {
  readonly authorization_id: string;
  readonly csrf: string;
}

/** The MAC of a proof's parts for `purpose`, the request and the browser. */
const macOf = (deps: AuthDeps, purpose: string, bound: Bound, parts: readonly string[]) =>
  deps.tokens.flowBinding(`${purpose}:${bound.authorization_id}:${bound.csrf}:${parts.join(":")}`);

/**
 * A proof the server made of `parts` for the request and the browser `bound` names: `parts` joined
 * by dots, then its MAC. Bound to the browser, a proof copied into another browser (its own cookie
 * and form value) proves nothing there.
 */
export function sign(deps: AuthDeps, purpose: string, bound: Bound, parts: readonly string[]): string {
  return [...parts, macOf(deps, purpose, bound, parts)].join(".");
}

/**
 * The parts of a proof `sign` made for `purpose`, the request and the browser, `count` of them with the expiry
 * last, when its MAC holds and it has not expired; else null.
 */
export function opened(
  deps: AuthDeps,
  purpose: string,
  bound: Bound,
  proof: string,
  count: number,
): string[] | null {
  const pieces = proof.split(".");
  if (pieces.length !== count + 1) return null;
  const parts = pieces.slice(0, count);
  const until = Number(parts[count - 1]);
  if (!Number.isInteger(until) || until < Math.floor(Date.now() / 1000)) return null;
  return sameSecret(pieces[count] ?? "", macOf(deps, purpose, bound, parts)) ? parts : null;
}

export const expiry = () => String(Math.floor(Date.now() / 1000) + STEP_TTL_S);

/** A page's answer with the headers every hosted page has. */
export function html(c: Context<AppEnv>, look: Look, body: string, status: 200 | 400 | 404 = 200) {
  c.header("Cache-Control", "no-store");
  c.header("X-Frame-Options", "DENY");
  c.header("X-Content-Type-Options", "nosniff");
  c.header("Referrer-Policy", "no-referrer");
  c.header("Content-Security-Policy", contentSecurityPolicy(look));
  return c.html(body, status);
}

/**
 * The browser sent on to the client (a code, or `access_denied`) from a posted form: 303, so that the
 * form is never posted again to the client (RFC 9700 §4.12), with no referrer and nothing cached.
 */
export function toClient(c: Context<AppEnv>, location: string) {
  c.header("Cache-Control", "no-store");
  c.header("Referrer-Policy", "no-referrer");
  return c.redirect(location, 303);
}

export function csrfOk(c: Context<AppEnv>, form: Record<string, string>) {
  const cookie = getCookie(c, CSRF_COOKIE) ?? "";
  return cookie.length >= 32 && sameSecret(cookie, form.csrf ?? "");
}

export async function readForm(c: Context<AppEnv>) {
  const params = new URLSearchParams(await c.req.text());
  return Object.fromEntries(params) as Record<string, string>;
}

/** The state every form carries: the request, the form's value, the page's language. */
export const carried = (form: Record<string, string>, look: Look) => ({
  authorization_id: form.authorization_id ?? "",
  csrf: form.csrf ?? "",
  locale: look.locale,
});

/**
 * A password sign-in as `POST /token`'s: counted with it (one count per client), so that guesses
 * cannot be spread over both.
 */
export const guessLimit = (limits: RateLimits | undefined) =>
  limits?.header ? [perClientLimit(limits, "token", limits.tokenPer5Min)] : [];

/** The captcha `POST /token` asks (middleware/captcha.ts), read from the form: why it fails, or null. */
export async function captchaProblem(
  captcha: CaptchaVerifier | undefined,
  c: Context<AppEnv>,
  form: Record<string, string>,
) {
  if (captcha === undefined) return null;
  const token = CAPTCHA_FIELDS.map((field) => form[field]).find((value) => value);
  const check = () => checkCaptcha({ captcha }, { token, remoteIp: clientAddress(c) });
  // The provider's answer is not this process's work: the request's slot goes on meanwhile.
  const checked = await waitAside(c, check);
  return checked.ok ? null : checked.error.message;
}

/** With the pages off (`OAUTH_SERVER_ENABLED`, `OAUTH_SERVER_AUTHORIZATION_PATH`), their 404 page. */
export const gate =
  (pages: Pages): MiddlewareHandler<AppEnv> =>
  async (c, next) => {
    const { enabled, builtInConsentPage } = pages.ctx.auth.settings.oauthServer;
    if (enabled && builtInConsentPage) return next();
    const look = lookOf(pages, c);
    return html(c, look, problemPage(look.texts.not_found, look), 404);
  };

export const expired = (c: Context<AppEnv>, look: Look) =>
  html(c, look, problemPage(look.texts.form_expired, look), 400);

/**
 * A form's handler: the form read, the page's look in its language, and the form's CSRF value
 * checked against its cookie before `step` sees anything (a form without it gets the expired page).
 */
export const formStep =
  (
    pages: Pages,
    step: (c: Context<AppEnv>, form: Record<string, string>, look: Look) => Promise<Response>,
  ): MiddlewareHandler<AppEnv> =>
  async (c) => {
    const form = await readForm(c);
    const look = lookOf(pages, c, form.locale);
    if (!csrfOk(c, form)) return expired(c, look);
    return step(c, form, look);
  };
