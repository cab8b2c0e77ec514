import { createHash, randomBytes, timingSafeEqual } from "node:crypto";
import { type EndSessionRequest, endSession } from "@authsvc/core/oauth-server";
import type { Context } from "hono";
import { getCookie, setCookie } from "hono/cookie";
import type { AppEnv } from "../../http/app-env.js";
import { jsonObject, type Parameter, redirect } from "../../http/operation.js";
import type { Look } from "../hosted-pages/layout.js";
import { html, lookOf, type Pages, pagesOf } from "../hosted-pages/shared.js";
import { chooseLocale } from "../hosted-pages/texts.js";
import { endpoint, type ModuleContext, type ModuleEndpoint } from "../module.js";
import { htmlPage } from "../oauth-server/oauth.openapi-schemas.js";
import { confirmPage, refusedPage, signedOutPage } from "./logout-page-html.js";

const PATH = "/oauth/logout";
const CSRF_COOKIE = "authsvc-oauth-logout";
/** How long the confirmation form stays usable. */
const CONFIRM_TTL_S = 600;
/** The parameters RP-Initiated Logout §2 names, each with its longest accepted value. */
const LIMITS: Readonly<Record<string, number>> = {
  id_token_hint: 16_384,
  client_id: 255,
  post_logout_redirect_uri: 2048,
  state: 4096,
  logout_hint: 1024,
  ui_locales: 255,
};
/** The confirmation form's own fields. */
const FORM_FIELDS = new Set(["csrf", "confirm"]);

const string = { type: "string" } as const;
const PARAMETERS: readonly Parameter[] = [
  { name: "id_token_hint", description: "An ID token this server issued to the client (expired or not)." },
  {
    name: "client_id",
    description: "The client; needed with post_logout_redirect_uri when no hint is sent.",
  },
  {
    name: "post_logout_redirect_uri",
    description: "One of the client's registered post_logout_redirect_uris.",
  },
  { name: "state", description: "Sent back with the redirect." },
  { name: "logout_hint", description: "Accepted and not used (authsvc keeps no sign-in in the browser)." },
  {
    name: "ui_locales",
    description: "The languages the pages should speak, by preference (the hosted pages' texts).",
  },
];
const RESPONSES = {
  200: htmlPage("Signed out (no post_logout_redirect_uri), or the confirmation form (no valid hint)."),
  302: redirect("To the registered post_logout_redirect_uri, with the state."),
  303: redirect("From the confirmation form: to the registered post_logout_redirect_uri, with the state."),
  400: htmlPage(
    "A refused request (an invalid hint, an unregistered URI, a repeated parameter, an expired form).",
  ),
  404: htmlPage("The OAuth server is off."),
};

class Refused extends Error {
  override name = "Refused";
}

/** Equal secrets, compared in constant time (as digests, so that lengths tell nothing either). */
const sameSecret = (a: string, b: string) =>
  timingSafeEqual(createHash("sha256").update(a).digest(), createHash("sha256").update(b).digest());

/** The cookie's path: the endpoint's as the browser asked for it (under a base path too). */
function pagePath(c: Context<AppEnv>): string {
  const asked = new URL(c.req.url).pathname;
  return asked.endsWith(PATH) && /^[A-Za-z0-9/._~%-]+$/.test(asked) ? asked : PATH;
}

/**
 * The look of a page answering `c`: the hosted pages' theme and texts, in the request's `ui_locales`
 * (query or form) or the browser's language, its stylesheet beside the endpoint (`pages.css`).
 */
function lookFor(pages: Pages, c: Context<AppEnv>, uiLocales?: string): Look {
  const { defaultLocale } = pages.ctx.config.hostedPages;
  const asked = uiLocales ?? c.req.query("ui_locales");
  const locale = chooseLocale(
    Object.keys(pages.texts),
    asked,
    c.req.header("accept-language"),
    defaultLocale,
  );
  return { ...lookOf(pages, c, locale), root: pagePath(c) };
}

/** The request's parameters: the query of a GET, the form of a POST; a repeated or oversized one is refused. */
async function paramsOf(c: Context<AppEnv>): Promise<Record<string, string>> {
  const source =
    c.req.method === "POST" ? new URLSearchParams(await c.req.text()) : new URL(c.req.url).searchParams;
  const out: Record<string, string> = {};
  for (const [key, value] of source) {
    const limit = LIMITS[key];
    if (limit === undefined && !FORM_FIELDS.has(key)) continue;
    if (key in out) throw new Refused(`parameter '${key}' given more than once`);
    if (limit !== undefined && value.length > limit) throw new Refused(`${key} is too long`);
    out[key] = value;
  }
  return out;
}

/** The confirmation form's CSRF value came back in its SameSite=Strict cookie. */
function confirmed(c: Context<AppEnv>, params: Record<string, string>): boolean {
  if (c.req.method !== "POST" || params.confirm !== "yes") return false;
  const cookie = getCookie(c, CSRF_COOKIE) ?? "";
  return cookie.length >= 32 && sameSecret(cookie, params.csrf ?? "");
}

const present = (value: string | undefined) => (value === undefined || value === "" ? undefined : value);

const handler = (ctx: ModuleContext) => {
  const { auth } = ctx;
  const pages = pagesOf(ctx);
  return async (c: Context<AppEnv>) => {
    if (!auth.settings.oauthServer.enabled) {
      const look = lookFor(pages, c);
      return html(c, look, refusedPage("feature_disabled", "OAuth server is disabled", look), 404);
    }
    let params: Record<string, string>;
    try {
      params = await paramsOf(c);
    } catch (error) {
      if (!(error instanceof Refused)) throw error;
      const look = lookFor(pages, c);
      return html(c, look, refusedPage("invalid_request", error.message, look), 400);
    }
    const look = lookFor(pages, c, present(params.ui_locales));
    const wantsConfirmation = c.req.method === "POST" && params.confirm === "yes";
    const ok = confirmed(c, params);
    if (wantsConfirmation && !ok)
      return html(c, look, refusedPage("invalid_request", look.texts.logout_form_expired, look), 400);
    const request: EndSessionRequest = {
      idTokenHint: present(params.id_token_hint),
      clientId: present(params.client_id),
      postLogoutRedirectUri: present(params.post_logout_redirect_uri),
      state: present(params.state),
      confirmed: ok,
    };
    const outcome = await endSession(c.get("deps"), request);
    if (!outcome.ok) return html(c, look, refusedPage("invalid_request", outcome.error.message, look), 400);
    const result = outcome.value;
    if (result.kind === "confirm") {
      const csrf = randomBytes(32).toString("base64url");
      setCookie(c, CSRF_COOKIE, csrf, {
        httpOnly: true,
        secure: new URL(c.req.url).protocol === "https:",
        sameSite: "Strict",
        path: pagePath(c),
        maxAge: CONFIRM_TTL_S,
      });
      const fields: Record<string, string> = { csrf };
      for (const name of ["client_id", "post_logout_redirect_uri", "state", "ui_locales"] as const) {
        const value = present(params[name]);
        if (value !== undefined) fields[name] = value;
      }
      return html(c, look, confirmPage({ clientName: result.client?.name ?? null, fields }, look));
    }
    if (result.redirectTo !== null) {
      c.header("Cache-Control", "no-store");
      c.header("Referrer-Policy", "no-referrer");
      // A posted form (the confirmation) is sent on with 303, never posted again (RFC 9700 §4.12).
      return c.redirect(result.redirectTo, c.req.method === "POST" ? 303 : 302);
    }
    return html(c, look, signedOutPage(look));
  };
};

const formBody = {
  schema: jsonObject({
    ...Object.fromEntries(PARAMETERS.map((p) => [p.name, { ...string, description: p.description }])),
    csrf: {
      ...string,
      description: "The confirmation form's value, repeated from its SameSite=Strict cookie.",
    },
    confirm: { ...string, description: "`yes`: the user confirmed on the form." },
  }),
  contentTypes: ["application/x-www-form-urlencoded"],
};

/**
 * `GET`/`POST /oauth/logout`, the `end_session_endpoint` (OpenID Connect RP-Initiated Logout 1.0).
 * A valid `id_token_hint` ends its session at once; without one nothing ends and the user confirms on
 * a form (no script, framing refused, a SameSite=Strict cookie's value repeated in the form) before
 * being sent on. The browser is sent only to a `post_logout_redirect_uri` the client registered.
 */
export const logoutEndpoints: readonly ModuleEndpoint[] = [
  endpoint(
    {
      method: "get",
      path: PATH,
      summary: "RP-initiated logout (OpenID Connect): ends the session an ID token names.",
      access: "public",
      query: PARAMETERS,
      responses: RESPONSES,
    },
    (ctx) => [handler(ctx)],
  ),
  endpoint(
    {
      method: "post",
      path: PATH,
      summary: "RP-initiated logout with a form body, and the confirmation form's answer.",
      access: "public",
      body: formBody,
      responses: RESPONSES,
    },
    (ctx) => [handler(ctx)],
  ),
  endpoint(
    {
      method: "get",
      path: `${PATH}/pages.css`,
      summary: "The logout pages' stylesheet: the hosted pages', from the configured colours.",
      access: "public",
      responses: {
        200: { description: "The stylesheet.", media: "text/css", body: { type: "string" } },
        404: htmlPage("The OAuth server is off."),
      },
    },
    (ctx) => {
      const pages = pagesOf(ctx);
      return [
        (c) => {
          if (!ctx.auth.settings.oauthServer.enabled) {
            const look = lookFor(pages, c);
            return html(c, look, refusedPage("feature_disabled", "OAuth server is disabled", look), 404);
          }
          c.header("Cache-Control", "public, max-age=300");
          c.header("X-Content-Type-Options", "nosniff");
          return c.body(pages.stylesheet, 200, { "content-type": "text/css; charset=utf-8" });
        },
      ];
    },
  ),
];
