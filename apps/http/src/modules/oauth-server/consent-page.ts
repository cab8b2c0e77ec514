import { createHash, randomBytes, timingSafeEqual } from "node:crypto";
import type { AuthDeps } from "@authsvc/core";
import { type CaptchaVerifier, checkCaptcha } from "@authsvc/core/guards";
import { authorizationDetails, decideConsent, scopesOf } from "@authsvc/core/oauth-server";
import { signInWithPassword } from "@authsvc/core/sessions";
import type { Context, MiddlewareHandler } from "hono";
import { getCookie, setCookie } from "hono/cookie";
import type { AppEnv } from "../../http/app-env.js";
import { clientAddress } from "../../http/client-address.js";
import { waitAside } from "../../http/flow-control/index.js";
import { perClientLimit, type RateLimits } from "../../http/middleware/rate-limit.js";
import { jsonObject, redirect } from "../../http/operation.js";
import { endpoint, type ModuleContext, type ModuleEndpoint } from "../module.js";
import { consentPage, problemPage, signInPage } from "./consent-page-html.js";
import { htmlPage } from "./oauth.openapi-schemas.js";

const PATH = "/oauth/consent";
const CSRF_COOKIE = "authsvc-oauth-consent";
/** Where a captcha widget leaves its token in a form (hCaptcha's, Turnstile's), or a page's own field. */
const CAPTCHA_FIELDS = ["captcha_token", "h-captcha-response", "cf-turnstile-response"] as const;
/** How long the signed-in step's approval stays usable. */
const CONSENT_TTL_S = 600;

const string = { type: "string" } as const;
const formBody = (properties: Record<string, { type: string; description?: string }>) => ({
  schema: jsonObject(properties),
  contentTypes: ["application/x-www-form-urlencoded"],
});
const PROBLEM = htmlPage("A page naming the problem (a missing or expired form, a refused request).");
const OFF = htmlPage("The page is off (`OAUTH_SERVER_ENABLED`, `OAUTH_SERVER_AUTHORIZATION_PATH` set).");
const CSRF = { ...string, description: "The form's value, repeated from its SameSite=Strict cookie." };

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

const proof = (deps: AuthDeps, authorizationId: string, userId: string, expires: number) =>
  deps.tokens.flowBinding(`oauth-consent:${authorizationId}:${userId}:${expires}`);

function html(c: Context<AppEnv>, body: string, status: 200 | 400 | 404 = 200) {
  c.header("Cache-Control", "no-store");
  c.header("X-Frame-Options", "DENY");
  c.header(
    "Content-Security-Policy",
    "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'",
  );
  return c.html(body, status);
}

function csrfOk(c: Context<AppEnv>, form: Record<string, string>) {
  const cookie = getCookie(c, CSRF_COOKIE) ?? "";
  return cookie.length >= 32 && sameSecret(cookie, form.csrf ?? "");
}

async function readForm(c: Context<AppEnv>) {
  const params = new URLSearchParams(await c.req.text());
  return Object.fromEntries(params) as Record<string, string>;
}

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

/**
 * A password sign-in as `POST /token`'s: counted with it (one count per client), so that guesses
 * cannot be spread over both.
 */
const guessLimit = (limits: RateLimits | undefined) =>
  limits?.header ? [perClientLimit(limits, "token", limits.tokenPer5Min)] : [];

/** The captcha `POST /token` asks (middleware/captcha.ts), read from the form: why it fails, or null. */
async function captchaProblem(
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

/** With the page off (`OAUTH_SERVER_ENABLED`, `OAUTH_SERVER_AUTHORIZATION_PATH`), its 404 page. */
const gate =
  ({ auth }: ModuleContext): MiddlewareHandler<AppEnv> =>
  async (c, next) => {
    const { enabled, builtInConsentPage } = auth.settings.oauthServer;
    return enabled && builtInConsentPage ? next() : html(c, problemPage("Not found"), 404);
  };

/**
 * The built-in sign-in and consent page (embedded mode without `OAUTH_SERVER_AUTHORIZATION_PATH`), so
 * that a development server is a working provider at once. Forms only, no script. Two guards against
 * cross-site requests: a random value in a SameSite=Strict cookie that each form repeats (double
 * submit), and, for the decision, a proof of the sign-in bound to the request, the user and a time (a
 * keyed MAC of the server), so that no one but the browser that signed in can approve.
 */
export const consentPageEndpoints: readonly ModuleEndpoint[] = [
  endpoint(
    {
      method: "get",
      path: "/oauth/consent",
      summary: "The built-in page's sign-in form, where `/oauth/authorize` sends the browser.",
      access: "public",
      query: [{ name: "authorization_id", description: "The authorization request's id.", required: true }],
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
    (ctx) => [
      gate(ctx),
      (c) => {
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
      },
    ],
  ),
  endpoint(
    {
      method: "post",
      path: "/oauth/consent/sign-in",
      summary: "Signs in with email and password, then shows the consent form.",
      access: "public",
      limited: true,
      body: formBody({ authorization_id: string, csrf: CSRF, email: string, password: string }),
      responses: {
        200: htmlPage("The consent form."),
        302: redirect("Consent already given: to the client, with a code."),
        400: htmlPage("The sign-in form again with the problem, or a page naming it."),
        404: OFF,
      },
    },
    (ctx) => [
      gate(ctx),
      ...guessLimit(ctx.rateLimit),
      async (c) => {
        const form = await readForm(c);
        const authorizationId = form.authorization_id ?? "";
        if (!csrfOk(c, form)) return html(c, problemPage("This form has expired. Open the link again."), 400);
        const refused = await captchaProblem(ctx.captcha, c, form);
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
          proof: `${user.id}.${expires}.${proof(ctx.auth, authorizationId, user.id, expires)}`,
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
      },
    ],
  ),
  endpoint(
    {
      method: "post",
      path: "/oauth/consent/decision",
      summary: "The user's decision (`approve` or `deny`), with the proof of the sign-in step.",
      access: "public",
      body: formBody({
        authorization_id: string,
        csrf: CSRF,
        proof: { ...string, description: "The signed-in step's proof, bound to the request and user." },
        action: { ...string, description: "`approve` or `deny`." },
      }),
      responses: {
        302: redirect("To the client, with a code or `error=access_denied`."),
        400: PROBLEM,
        404: OFF,
      },
    },
    (ctx) => [
      gate(ctx),
      async (c) => {
        const form = await readForm(c);
        if (!csrfOk(c, form)) return html(c, problemPage("This form has expired. Open the link again."), 400);
        const authorizationId = form.authorization_id ?? "";
        const [userId = "", expires = "", mac = ""] = (form.proof ?? "").split(".");
        const until = Number(expires);
        const valid =
          Number.isInteger(until) &&
          until >= Math.floor(Date.now() / 1000) &&
          sameSecret(mac, proof(ctx.auth, authorizationId, userId, until));
        if (!valid) return html(c, problemPage("This form has expired. Open the link again."), 400);
        const decided = await decideConsent(c.get("deps"), {
          authorizationId,
          userId,
          action: form.action ?? "",
        });
        if (!decided.ok) return html(c, problemPage(decided.error.message), 400);
        return c.redirect(decided.value.redirectUrl, 302);
      },
    ],
  ),
];
