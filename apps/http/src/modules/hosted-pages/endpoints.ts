import { createHash, randomBytes, timingSafeEqual } from "node:crypto";
import type { AuthDeps } from "@authsvc/core";
import type { User } from "@authsvc/core/accounts";
import { type CaptchaVerifier, checkCaptcha } from "@authsvc/core/guards";
import { challengeFactor, verifyFactor } from "@authsvc/core/mfa";
import { authorizationDetails, clientIdOf, decideConsent, scopesOf } from "@authsvc/core/oauth-server";
import { signInWithPasskey } from "@authsvc/core/passkeys";
import { signInWithPassword } from "@authsvc/core/sessions";
import type { Context, MiddlewareHandler } from "hono";
import { getCookie, setCookie } from "hono/cookie";
import type { AppEnv } from "../../http/app-env.js";
import { clientAddress } from "../../http/client-address.js";
import { waitAside } from "../../http/flow-control/index.js";
import { perClientLimit, type RateLimits } from "../../http/middleware/rate-limit.js";
import { jsonObject, redirect } from "../../http/operation.js";
import { endpoint, type ModuleContext, type ModuleEndpoint } from "../module.js";
import { htmlPage } from "../oauth-server/oauth.openapi-schemas.js";
import { contentSecurityPolicy, type Look, stylesheet } from "./layout.js";
import { consentPage, mfaPage, problemPage, signInPage } from "./pages.js";
import { PASSKEY_SCRIPT } from "./passkey-script.js";
import { catalogue, chooseLocale, ENGLISH, type Texts } from "./texts.js";

export const PATH = "/oauth/consent";
export const CSRF_COOKIE = "authsvc-oauth-consent";
/** Where a captcha widget leaves its token in a form (hCaptcha's, Turnstile's), or a page's own field. */
const CAPTCHA_FIELDS = ["captcha_token", "h-captcha-response", "cf-turnstile-response"] as const;
/** How long each step's form (and its proof) stays usable. */
export const STEP_TTL_S = 600;

const string = { type: "string" } as const;
export const formBody = (properties: Record<string, { type: string; description?: string }>) => ({
  schema: jsonObject(properties),
  contentTypes: ["application/x-www-form-urlencoded"],
});
export const PROBLEM = htmlPage("A page naming the problem (a missing or expired form, a refused request).");
export const OFF = htmlPage(
  "The pages are off (`OAUTH_SERVER_ENABLED`, `OAUTH_SERVER_AUTHORIZATION_PATH` set).",
);
export const CSRF = { ...string, description: "The form's value, repeated from its SameSite=Strict cookie." };
const LOCALE_FIELD = { ...string, description: "The page's language, carried from step to step." };

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

/** A proof the server made of `parts` for the request `authorizationId`: `parts` joined by dots, then its MAC. */
export function sign(
  deps: AuthDeps,
  purpose: string,
  authorizationId: string,
  parts: readonly string[],
): string {
  const mac = deps.tokens.flowBinding(`${purpose}:${authorizationId}:${parts.join(":")}`);
  return [...parts, mac].join(".");
}

/**
 * The parts of a proof `sign` made for `purpose` and the request, `count` of them with the expiry
 * last, when its MAC holds and it has not expired; else null.
 */
export function opened(
  deps: AuthDeps,
  purpose: string,
  authorizationId: string,
  proof: string,
  count: number,
): string[] | null {
  const pieces = proof.split(".");
  if (pieces.length !== count + 1) return null;
  const parts = pieces.slice(0, count);
  const until = Number(parts[count - 1]);
  if (!Number.isInteger(until) || until < Math.floor(Date.now() / 1000)) return null;
  const expected = deps.tokens.flowBinding(`${purpose}:${authorizationId}:${parts.join(":")}`);
  return sameSecret(pieces[count] ?? "", expected) ? parts : null;
}

const expiry = () => String(Math.floor(Date.now() / 1000) + STEP_TTL_S);

/** A page's answer with the headers every hosted page has. */
export function html(c: Context<AppEnv>, look: Look, body: string, status: 200 | 400 | 404 = 200) {
  c.header("Cache-Control", "no-store");
  c.header("X-Frame-Options", "DENY");
  c.header("X-Content-Type-Options", "nosniff");
  c.header("Referrer-Policy", "no-referrer");
  c.header("Content-Security-Policy", contentSecurityPolicy(look));
  return c.html(body, status);
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

/** The sign-in page, with a problem when a step failed. */
export function signInAnswer(
  c: Context<AppEnv>,
  look: Look,
  fields: Record<string, string>,
  problem?: string,
) {
  const passkeys = c.get("deps").settings.passkeys.enabled;
  const apiBase = look.root.slice(0, -PATH.length);
  return html(
    c,
    look,
    signInPage(
      {
        action: `${look.root}/sign-in`,
        fields,
        problem,
        ...(passkeys ? { passkeyAction: `${look.root}/passkey`, apiBase } : {}),
      },
      look,
    ),
    problem ? 400 : 200,
  );
}

const expired = (c: Context<AppEnv>, look: Look) =>
  html(c, look, problemPage(look.texts.form_expired, look), 400);

/**
 * Once the user proved who they are (a password, an email code, a passkey, a provider) in the
 * session `sessionId`: the second factor when they have a verified one, else the consent step.
 */
export async function afterFirstFactor(
  pages: Pages,
  c: Context<AppEnv>,
  look: Look,
  form: Record<string, string>,
  signedIn: { readonly user: User; readonly sessionId: string; readonly aal: string },
) {
  const run = c.get("deps");
  const { user, sessionId } = signedIn;
  if (signedIn.aal !== "aal2") {
    const factors = (await run.store.factors.listByUser(user.id)).filter((f) => f.status === "verified");
    if (factors.length > 0) {
      const factor =
        factors.find((f) => f.factorType === "totp") ?? factors.find((f) => f.factorType === "phone");
      if (factor === undefined) return html(c, look, problemPage(look.texts.form_expired, look), 400);
      const challenged = await challengeFactor(run, {
        user,
        factorId: factor.id,
        ipAddress: clientAddress(c) ?? "",
      });
      if (!challenged.ok) return html(c, look, problemPage(challenged.error.message, look), 400);
      const fields = carried(form, look);
      const proof = sign(pages.ctx.auth, "oauth-consent-mfa", fields.authorization_id, [
        user.id,
        sessionId,
        factor.id,
        challenged.value.id,
        expiry(),
      ]);
      return html(c, look, mfaPage({ action: `${look.root}/mfa`, fields: { ...fields, proof } }, look));
    }
  }
  return consentStep(pages, c, look, form, user, signedIn.aal);
}

/** The consent form, or the client's redirect when an earlier consent covers the request. */
async function consentStep(
  pages: Pages,
  c: Context<AppEnv>,
  look: Look,
  form: Record<string, string>,
  user: User,
  aal: string,
) {
  const fields = carried(form, look);
  const found = await authorizationDetails(c.get("deps"), {
    authorizationId: fields.authorization_id,
    userId: user.id,
  });
  if (!found.ok) return html(c, look, problemPage(found.error.message, look), 400);
  if (found.value.kind === "redirect") return c.redirect(found.value.redirectUrl, 302);
  const { client, authorization } = found.value;
  const proof = sign(pages.ctx.auth, "oauth-consent", fields.authorization_id, [user.id, aal, expiry()]);
  return html(
    c,
    look,
    consentPage(
      {
        action: `${look.root}/decision`,
        fields: { ...fields, proof },
        clientName: client.name ?? clientIdOf(client),
        clientUri: client.uri,
        logoUri: client.logoUri,
        documentHost: client.metadataUrl ? new URL(client.metadataUrl).host : null,
        redirectUri: authorization.redirectUri,
        userEmail: user.email ?? user.phone ?? "",
        scopes: scopesOf(authorization.scope),
        descriptions: Object.fromEntries(
          found.value.scopes.flatMap((s) => (s.description === null ? [] : [[s.scope, s.description]])),
        ),
        resource: authorization.resource,
      },
      look,
    ),
  );
}

/**
 * authsvc's hosted sign-in and consent pages, where `/oauth/authorize` sends the browser when
 * `OAUTH_SERVER_AUTHORIZATION_PATH` is empty. Forms, and script only from authsvc's own files. Two
 * guards against cross-site requests: a random value in a SameSite=Strict cookie that each form
 * repeats (double submit), and, for each step after the first, a proof of the steps before it bound
 * to the request, the user and a time (a keyed MAC of the server), so that no one but the browser
 * that signed in can go on.
 */
export const hostedPageEndpoints: readonly ModuleEndpoint[] = [
  endpoint(
    {
      method: "get",
      path: "/oauth/consent",
      summary: "The hosted sign-in page, where `/oauth/authorize` sends the browser.",
      access: "public",
      query: [
        { name: "authorization_id", description: "The authorization request's id.", required: true },
        { name: "ui_locales", description: "The languages to answer in, by preference (OpenID Connect)." },
      ],
      responses: {
        200: {
          ...htmlPage("The sign-in form."),
          headers: {
            "set-cookie": { description: "The form's value (`authsvc-oauth-consent`, SameSite=Strict)." },
          },
        },
        400: PROBLEM,
        404: OFF,
      },
    },
    (ctx) => {
      const pages = pagesOf(ctx);
      return [
        gate(pages),
        (c) => {
          const look = lookOf(pages, c);
          const authorizationId = c.req.query("authorization_id") ?? "";
          if (!authorizationId) return html(c, look, problemPage(look.texts.link_missing_id, look), 400);
          const csrf = randomBytes(32).toString("base64url");
          setCookie(c, CSRF_COOKIE, csrf, {
            httpOnly: true,
            sameSite: "Strict",
            path: look.root,
            maxAge: STEP_TTL_S,
          });
          return signInAnswer(c, look, {
            authorization_id: authorizationId,
            csrf,
            locale: look.locale,
          });
        },
      ];
    },
  ),
  endpoint(
    {
      method: "get",
      path: "/oauth/consent/pages.css",
      summary: "The hosted pages' stylesheet, made from the configured colours.",
      access: "public",
      responses: {
        200: { description: "The stylesheet.", media: "text/css", body: { type: "string" } },
        404: OFF,
      },
    },
    (ctx) => {
      const pages = pagesOf(ctx);
      return [
        gate(pages),
        (c) => {
          c.header("Cache-Control", "public, max-age=300");
          c.header("X-Content-Type-Options", "nosniff");
          return c.body(pages.stylesheet, 200, { "content-type": "text/css; charset=utf-8" });
        },
      ];
    },
  ),
  endpoint(
    {
      method: "post",
      path: "/oauth/consent/sign-in",
      summary: "Signs in with email and password, then shows the second factor's form or the consent form.",
      access: "public",
      limited: true,
      body: formBody({
        authorization_id: string,
        csrf: CSRF,
        locale: LOCALE_FIELD,
        email: string,
        password: string,
      }),
      responses: {
        200: htmlPage("The second factor's form, or the consent form."),
        302: redirect("Consent already given: to the client, with a code."),
        400: htmlPage("The sign-in form again with the problem, or a page naming it."),
        404: OFF,
      },
    },
    (ctx) => {
      const pages = pagesOf(ctx);
      return [
        gate(pages),
        ...guessLimit(ctx.rateLimit),
        async (c) => {
          const form = await readForm(c);
          const look = lookOf(pages, c, form.locale);
          if (!csrfOk(c, form)) return expired(c, look);
          const fields = carried(form, look);
          const refused = await captchaProblem(ctx.captcha, c, form);
          if (refused !== null) return signInAnswer(c, look, fields, refused);
          const signedIn = await signInWithPassword(c.get("deps"), {
            email: form.email ?? "",
            password: form.password ?? "",
          });
          if (!signedIn.ok) return signInAnswer(c, look, fields, signedIn.error.message);
          const { user, session } = signedIn.value;
          return afterFirstFactor(pages, c, look, form, { user, sessionId: session.id, aal: session.aal });
        },
      ];
    },
  ),
  endpoint(
    {
      method: "get",
      path: "/oauth/consent/passkey.js",
      summary: "The sign-in page's passkey script (the pages' only script, served by authsvc).",
      access: "public",
      responses: {
        200: { description: "The script.", media: "text/javascript", body: { type: "string" } },
        404: OFF,
      },
    },
    (ctx) => {
      const pages = pagesOf(ctx);
      return [
        gate(pages),
        (c) => {
          c.header("Cache-Control", "public, max-age=300");
          c.header("X-Content-Type-Options", "nosniff");
          return c.body(PASSKEY_SCRIPT, 200, { "content-type": "text/javascript; charset=utf-8" });
        },
      ];
    },
  ),
  endpoint(
    {
      method: "post",
      path: "/oauth/consent/passkey",
      summary:
        "Signs in with the browser's passkey assertion (`passkey.js` fills the form), then as a password sign-in.",
      access: "public",
      body: formBody({
        authorization_id: string,
        csrf: CSRF,
        locale: LOCALE_FIELD,
        challenge_id: { ...string, description: "The ceremony of `POST /passkeys/authentication/options`." },
        credential: { ...string, description: "The browser's assertion, as JSON." },
      }),
      responses: {
        200: htmlPage("The second factor's form, or the consent form."),
        302: redirect("Consent already given: to the client, with a code."),
        400: htmlPage("The sign-in form again with the problem, or a page naming it."),
        404: OFF,
      },
    },
    (ctx) => {
      const pages = pagesOf(ctx);
      return [
        gate(pages),
        async (c) => {
          const form = await readForm(c);
          const look = lookOf(pages, c, form.locale);
          if (!csrfOk(c, form)) return expired(c, look);
          const fields = carried(form, look);
          let credential: unknown = null;
          try {
            credential = JSON.parse(form.credential ?? "");
          } catch {
            return signInAnswer(c, look, fields, look.texts.passkey_failed);
          }
          const signedIn = await signInWithPasskey(c.get("deps"), {
            challengeId: form.challenge_id ?? "",
            credential,
          });
          if (!signedIn.ok) return signInAnswer(c, look, fields, signedIn.error.message);
          const { user, session } = signedIn.value;
          return afterFirstFactor(pages, c, look, form, { user, sessionId: session.id, aal: session.aal });
        },
      ];
    },
  ),
  endpoint(
    {
      method: "post",
      path: "/oauth/consent/mfa",
      summary: "The second factor's code (TOTP, or a texted code), then the consent form.",
      access: "public",
      body: formBody({
        authorization_id: string,
        csrf: CSRF,
        locale: LOCALE_FIELD,
        proof: {
          ...string,
          description: "The sign-in step's proof, bound to the request, user and challenge.",
        },
        code: string,
      }),
      responses: {
        200: htmlPage("The consent form, or the code's form again with the problem."),
        302: redirect("Consent already given: to the client, with a code."),
        400: PROBLEM,
        404: OFF,
      },
    },
    (ctx) => {
      const pages = pagesOf(ctx);
      return [
        gate(pages),
        async (c) => {
          const form = await readForm(c);
          const look = lookOf(pages, c, form.locale);
          if (!csrfOk(c, form)) return expired(c, look);
          const fields = carried(form, look);
          const parts = opened(ctx.auth, "oauth-consent-mfa", fields.authorization_id, form.proof ?? "", 5);
          if (parts === null) return expired(c, look);
          const [userId = "", sessionId = "", factorId = "", challengeId = ""] = parts;
          const run = c.get("deps");
          const user = await run.store.users.findById(userId);
          if (user === null) return expired(c, look);
          const verified = await verifyFactor(run, {
            user,
            sessionId,
            factorId,
            challengeId,
            code: (form.code ?? "").trim(),
            ipAddress: clientAddress(c) ?? "",
          });
          if (!verified.ok)
            return html(
              c,
              look,
              mfaPage(
                {
                  action: `${look.root}/mfa`,
                  fields: { ...fields, proof: form.proof ?? "" },
                  problem: verified.error.message,
                },
                look,
              ),
              400,
            );
          return afterFirstFactor(pages, c, look, form, {
            user,
            sessionId,
            aal: verified.value.session.aal,
          });
        },
      ];
    },
  ),
  endpoint(
    {
      method: "post",
      path: "/oauth/consent/decision",
      summary: "The user's decision (`approve` or `deny`), with the proof of the sign-in steps.",
      access: "public",
      body: formBody({
        authorization_id: string,
        csrf: CSRF,
        locale: LOCALE_FIELD,
        proof: {
          ...string,
          description: "The signed-in step's proof, bound to the request, user and level.",
        },
        action: { ...string, description: "`approve` or `deny`." },
      }),
      responses: {
        302: redirect("To the client, with a code or `error=access_denied`."),
        400: PROBLEM,
        404: OFF,
      },
    },
    (ctx) => {
      const pages = pagesOf(ctx);
      return [
        gate(pages),
        async (c) => {
          const form = await readForm(c);
          const look = lookOf(pages, c, form.locale);
          if (!csrfOk(c, form)) return expired(c, look);
          const authorizationId = form.authorization_id ?? "";
          const parts = opened(ctx.auth, "oauth-consent", authorizationId, form.proof ?? "", 3);
          if (parts === null) return expired(c, look);
          const [userId = ""] = parts;
          const decided = await decideConsent(c.get("deps"), {
            authorizationId,
            userId,
            action: form.action ?? "",
          });
          if (!decided.ok) return html(c, look, problemPage(decided.error.message, look), 400);
          return c.redirect(decided.value.redirectUrl, 302);
        },
      ];
    },
  ),
];
