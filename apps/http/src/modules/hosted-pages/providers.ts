import { createHash, randomBytes } from "node:crypto";
import { startExternalSignIn } from "@authsvc/core/external";
import { exchangeAuthCode } from "@authsvc/core/pkce";
import { startSso } from "@authsvc/core/sso";
import type { Context } from "hono";
import { deleteCookie, getCookie, setCookie } from "hono/cookie";
import type { AppEnv } from "../../http/app-env.js";
import { setFlowCookie } from "../../http/flow-cookie.js";
import { redirect } from "../../http/operation.js";
import { endpoint, type ModuleEndpoint } from "../module.js";
import { htmlPage } from "../oauth-server/oauth.openapi-schemas.js";
import { ssoLimit } from "../sso/sso-http.js";
import type { Look } from "./layout.js";
import { afterFirstFactor } from "./mfa-step.js";
import { offeredProviders } from "./provider-list.js";
import {
  CSRF,
  CSRF_COOKIE,
  captchaProblem,
  carried,
  expired,
  formBody,
  formStep,
  gate,
  LOCALE_FIELD,
  lookOf,
  OFF,
  type Pages,
  PROBLEM,
  pagesOf,
  STEP_TTL_S,
  string,
} from "./shared.js";
import { FIRST_FACTOR_ANSWERS, signInAnswer } from "./sign-in.js";

/**
 * Signing in on the hosted page through an external provider or SAML SSO: the page starts the
 * provider's flow (`/authorize`'s or `/sso`'s use case) with PKCE, and the flow comes back to the
 * page's own return, which exchanges the code for the session and goes on as after a password.
 *
 * What binds the return to the browser that started it: a random value in a cookie (`SameSite=Lax`,
 * so that the provider's redirect back carries it; scoped to the return's path) from which, with the
 * authorization request's id, the PKCE verifier is derived. A code is of no use without both: not in
 * another browser (no cookie), not for another request (a tampered `authorization_id` derives another
 * verifier), and the return's target is the server's own page, never a parameter of the request.
 */
const RETURN_COOKIE = "authsvc-oauth-consent-return";
const RETURN = "/provider-return";

const verifierOf = (pages: Pages, authorizationId: string, nonce: string) =>
  pages.ctx.auth.tokens.flowBinding(`oauth-consent-return:${authorizationId}:${nonce}`);

/**
 * The return's address (on `API_EXTERNAL_URL`'s origin, under the pages' path as the browser reached
 * them), the challenge to start the flow with, and the browser's half of the binding in its cookie.
 */
function prepareReturn(pages: Pages, c: Context<AppEnv>, look: Look, authorizationId: string) {
  const nonce = randomBytes(32).toString("base64url");
  const external = new URL(pages.ctx.auth.settings.apiExternalUrl);
  const back = new URL(`${look.root}${RETURN}`, external);
  back.search = new URLSearchParams({ authorization_id: authorizationId, locale: look.locale }).toString();
  setCookie(c, RETURN_COOKIE, nonce, {
    httpOnly: true,
    secure: external.protocol === "https:",
    sameSite: "Lax",
    path: `${look.root}${RETURN}`,
    maxAge: STEP_TTL_S,
  });
  const codeChallenge = createHash("sha256")
    .update(verifierOf(pages, authorizationId, nonce))
    .digest("base64url");
  return { ownReturn: back.href, pkce: { codeChallenge, method: "s256" as const } };
}

/** To the provider, from a posted form. */
const toProvider = (c: Context<AppEnv>, url: string) => {
  c.header("Referrer-Policy", "no-referrer");
  return c.redirect(url, 303);
};

const STARTS = {
  303: redirect("To the provider (or the SSO identity provider)."),
  400: htmlPage("The sign-in form again with the problem, or a page naming it."),
  404: OFF,
};

export const providerEndpoints: readonly ModuleEndpoint[] = [
  endpoint(
    {
      method: "post",
      path: "/oauth/consent/provider",
      summary:
        "Starts a sign-in with an enabled external provider (as `GET /authorize`, with PKCE), coming back to the pages.",
      access: "public",
      limited: true,
      body: formBody({
        authorization_id: string,
        csrf: CSRF,
        locale: LOCALE_FIELD,
        provider: {
          ...string,
          description: "An enabled provider's name (`github`, `keycloak`, `custom:<name>`, …).",
        },
      }),
      responses: STARTS,
    },
    (ctx) => {
      const pages = pagesOf(ctx);
      return [
        gate(pages),
        formStep(pages, async (c, form, look) => {
          const fields = carried(form, look);
          const provider = form.provider ?? "";
          const offered = await offeredProviders(ctx, c.get("deps"));
          if (!offered.some((p) => p.id === provider))
            return signInAnswer(pages, c, look, fields, look.texts.provider_failed);
          const back = prepareReturn(pages, c, look, fields.authorization_id);
          const scopes = ctx.config.hostedPages.providerScopes[provider];
          const started = await startExternalSignIn(c.get("deps"), { provider, scopes, ...back });
          if (!started.ok) return signInAnswer(pages, c, look, fields, started.error.message);
          setFlowCookie(c, started.value);
          return toProvider(c, started.value.url);
        }),
      ];
    },
    // `GET /authorize`'s per-client count, shared with it.
    { limit: { name: "authorize", per5Min: "authorize" } },
  ),
  endpoint(
    {
      method: "post",
      path: "/oauth/consent/sso",
      summary:
        "Starts a SAML single sign-on with the identity provider of the email domain (as `POST /sso`), coming back to the pages.",
      access: "public",
      limited: true,
      body: formBody({
        authorization_id: string,
        csrf: CSRF,
        locale: LOCALE_FIELD,
        domain: { ...string, description: "The email domain an SSO provider owns." },
      }),
      responses: STARTS,
    },
    (ctx) => {
      if (!ctx.auth.settings.sso.enabled) return [];
      const pages = pagesOf(ctx);
      return [
        gate(pages),
        ssoLimit(ctx.rateLimit, "sso", ctx.auth.settings.sso.rateLimitSsoPer5Min),
        formStep(pages, async (c, form, look) => {
          const fields = carried(form, look);
          // `POST /sso` asks the captcha: so does its form here.
          const refused = await captchaProblem(ctx.captcha, c, form);
          if (refused !== null) return signInAnswer(pages, c, look, fields, refused);
          const back = prepareReturn(pages, c, look, fields.authorization_id);
          const domain = (form.domain ?? "").trim().toLowerCase();
          const started = await startSso(c.get("deps"), { domain, ...back });
          if (!started.ok) return signInAnswer(pages, c, look, fields, started.error.message);
          return toProvider(c, started.value.url);
        }),
      ];
    },
  ),
  endpoint(
    {
      method: "get",
      path: `/oauth/consent${RETURN}`,
      summary:
        "Where a provider's or SSO sign-in started on the pages comes back: the session is taken (PKCE), then the second factor or consent.",
      access: "public",
      query: [
        { name: "authorization_id", description: "The authorization request's id.", required: true },
        { name: "locale", description: "The page's language." },
        { name: "code", description: "The sign-in's code (PKCE), from `/callback` or the SAML ACS." },
        { name: "error", description: "The sign-in's refusal, instead of a code." },
        { name: "error_code", description: "authsvc's error code of the refusal." },
        {
          name: "error_description",
          description: "The refusal in words (not shown: the page says its own).",
        },
      ],
      responses: { ...FIRST_FACTOR_ANSWERS, 400: PROBLEM },
    },
    (ctx) => {
      const pages = pagesOf(ctx);
      return [
        gate(pages),
        async (c) => {
          const look = lookOf(pages, c, c.req.query("locale"));
          const authorizationId = c.req.query("authorization_id") ?? "";
          const nonce = getCookie(c, RETURN_COOKIE);
          const path = `${look.root}${RETURN}`;
          if (nonce !== undefined) deleteCookie(c, RETURN_COOKIE, { path, httpOnly: true });
          // No cookie: this browser started no sign-in here (a link passed on, a forged address).
          if (nonce === undefined || !authorizationId) return expired(c, look);
          // The page's forms from here on: the form cookie is `SameSite=Strict`, which the provider's
          // redirect back (a cross-site navigation) does not carry; a new one is given with them.
          const csrf = randomBytes(32).toString("base64url");
          setCookie(c, CSRF_COOKIE, csrf, {
            httpOnly: true,
            sameSite: "Strict",
            path: look.root,
            maxAge: STEP_TTL_S,
          });
          const form = { authorization_id: authorizationId, csrf, locale: look.locale };
          // The provider's words are not shown: anyone can put any words in this address.
          if (c.req.query("error") || !c.req.query("code"))
            return signInAnswer(pages, c, look, form, look.texts.provider_failed);
          const exchanged = await exchangeAuthCode(c.get("deps"), {
            authCode: c.req.query("code") ?? "",
            codeVerifier: verifierOf(pages, authorizationId, nonce),
          });
          if (!exchanged.ok) return expired(c, look);
          const { user, session } = exchanged.value.tokens;
          return afterFirstFactor(pages, c, look, form, { user, sessionId: session.id, aal: session.aal });
        },
      ];
    },
  ),
];
