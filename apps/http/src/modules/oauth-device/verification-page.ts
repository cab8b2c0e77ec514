import { randomBytes } from "node:crypto";
import { memoryLimiterStore } from "@authsvc/adapters";
import { enterUserCode } from "@authsvc/core/oauth-server";
import type { Context, MiddlewareHandler } from "hono";
import { getCookie, setCookie } from "hono/cookie";
import type { AppEnv } from "../../http/app-env.js";
import { clientAddress, limitedBlock } from "../../http/client-address.js";
import { jsonObject, redirect } from "../../http/operation.js";
import { html as hostedHtml, lookOf, pagesOf, sameSecret } from "../hosted-pages/shared.js";
import { endpoint, type ModuleContext, type ModuleEndpoint } from "../module.js";
import { type Look, problemPage } from "../oauth-server/consent-page-html.js";
import { htmlPage } from "../oauth-server/oauth.openapi-schemas.js";
import { devicePageResult, userCodePage } from "./device-page-html.js";

const PATH = "/oauth/device";
const CSRF_COOKIE = "authsvc-oauth-device";
/** How long the form stays usable. */
const FORM_TTL_S = 600;
const FIVE_MINUTES_S = 300;
const string = { type: "string" } as const;

const OFF = htmlPage("The OAuth server is off (`OAUTH_SERVER_ENABLED`).");
const EXPIRED = "This form has expired. Open the page again.";
/** Every refused code reads the same, whatever was wrong with it. */
const WRONG = "That code is not valid or has expired. Check the code on your device and try again.";

/** The page's path as the browser asked for it (under a base path too), which the form cookie is scoped to. */
function pagePath(c: Context<AppEnv>): string {
  const asked = new URL(c.req.url).pathname;
  return asked.endsWith(PATH) && /^[A-Za-z0-9/._~%-]+$/.test(asked) ? asked : PATH;
}

/**
 * The hosted pages' look (theme, texts' locale, CSP), with their files reached beside this page:
 * `/auth/v1/oauth/device` takes its stylesheet from `/auth/v1/oauth/consent/pages.css`.
 */
const pagesByApp = new WeakMap<ModuleContext, ReturnType<typeof pagesOf>>();
const lookFor = (ctx: ModuleContext, c: Context<AppEnv>): Look => ({
  ...lookOf(pagesByApp.get(ctx) ?? pagesByApp.set(ctx, pagesOf(ctx)).get(ctx) ?? pagesOf(ctx), c),
  root: `${pagePath(c).slice(0, -PATH.length)}/oauth/consent`,
});

/** A page as every hosted page is answered: never cached, never framed, no script but authsvc's files. */
const html = (
  ctx: ModuleContext,
  c: Context<AppEnv>,
  body: (look: Look) => string,
  status: 200 | 400 | 404 | 429 = 200,
) => {
  const look = lookFor(ctx, c);
  const answer = hostedHtml(c, look, body(look));
  return status === 200 ? answer : new Response(answer.body, { status, headers: answer.headers });
};

const gate =
  (ctx: ModuleContext): MiddlewareHandler<AppEnv> =>
  async (c, next) =>
    ctx.auth.settings.oauthServer.enabled
      ? next()
      : html(ctx, c, (look) => problemPage("Not found", look), 404);

/** The form with a fresh CSRF value, in its SameSite=Strict cookie too. */
function form(ctx: ModuleContext, c: Context<AppEnv>, userCode: string, problem?: string) {
  const csrf = randomBytes(32).toString("base64url");
  setCookie(c, CSRF_COOKIE, csrf, {
    httpOnly: true,
    sameSite: "Strict",
    path: pagePath(c),
    maxAge: FORM_TTL_S,
  });
  // Relative action: the page works under any base path (`/auth/v1/oauth/device`).
  const fields = { csrf };
  return html(
    ctx,
    c,
    (look) => userCodePage({ action: "device", fields, userCode, problem }, look),
    problem ? 400 : 200,
  );
}

/**
 * The limits on guessing user codes: every submission counts, right or wrong, per client address
 * (an IPv6 client by its /64) and for all addresses together, in the shared store so that every
 * instance counts as one. Past either, the page answers 429 without looking at the code.
 */
function guessLimits(ctx: ModuleContext): MiddlewareHandler<AppEnv> {
  const { rateLimit, config } = ctx;
  const build = rateLimit?.limiter ?? memoryLimiterStore().limiter;
  const { verifyPerClientPer5Min, verifyTotalPer5Min } = config.oauthDevice;
  const perClient = build({
    name: "oauth_device_verify",
    points: verifyPerClientPer5Min,
    durationSec: FIVE_MINUTES_S,
  });
  const total = build({
    name: "oauth_device_verify_total",
    points: verifyTotalPer5Min,
    durationSec: FIVE_MINUTES_S,
  });
  return async (c, next) => {
    const address = clientAddress(c);
    const allowed =
      (address === undefined || (await perClient.take(limitedBlock(address)))) && (await total.take("all"));
    if (!allowed)
      return html(
        ctx,
        c,
        (look) => problemPage("Too many attempts. Wait a few minutes, then try again.", look),
        429,
      );
    await next();
  };
}

/**
 * The verification page (RFC 8628 §3.3, `verification_uri`): the user types the code the device
 * shows, and a right one leads to the consent page of the device's request, where the user signs in
 * and approves or denies; the consent page then comes back here to say so. No script; a random
 * value in a SameSite=Strict cookie repeated by the form keeps another site from submitting a code
 * in the user's browser.
 */
export const verificationPageEndpoints: readonly ModuleEndpoint[] = [
  endpoint(
    {
      method: "get",
      path: PATH,
      summary: "The device verification page: the form for the code a device shows (RFC 8628 §3.3).",
      access: "public",
      query: [
        {
          name: "user_code",
          description: "Pre-fills the form (`verification_uri_complete`); never submitted by itself.",
        },
        {
          name: "result",
          description: "`approved` or `denied`: where the consent page sends the browser after the decision.",
        },
      ],
      responses: {
        200: {
          ...htmlPage("The form, or the decision's outcome."),
          headers: {
            "set-cookie": { description: "The form's value (`authsvc-oauth-device`, SameSite=Strict)." },
          },
        },
        404: OFF,
      },
    },
    (ctx) => [
      gate(ctx),
      (c) => {
        const result = c.req.query("result");
        if (result === "approved" || result === "denied")
          return html(ctx, c, (look) => devicePageResult(result, look));
        return form(ctx, c, (c.req.query("user_code") ?? "").slice(0, 32));
      },
    ],
  ),
  endpoint(
    {
      method: "post",
      path: PATH,
      summary: "Checks the code typed; a right one leads to the consent page of the device's request.",
      access: "public",
      body: {
        schema: jsonObject({
          user_code: { ...string, description: "As typed: case, dashes and spaces are ignored." },
          csrf: { ...string, description: "The form's value, repeated from its SameSite=Strict cookie." },
        }),
        contentTypes: ["application/x-www-form-urlencoded"],
      },
      responses: {
        303: redirect("To the consent page (`?authorization_id=`), as `/oauth/authorize` sends a browser."),
        400: htmlPage(
          "The form again, saying the code is not valid or has expired, or that the form expired.",
        ),
        404: OFF,
        429: htmlPage("Too many codes submitted, from this address or from all."),
      },
    },
    (ctx) => [
      gate(ctx),
      guessLimits(ctx),
      async (c) => {
        const body = Object.fromEntries(new URLSearchParams(await c.req.text())) as Record<string, string>;
        const cookie = getCookie(c, CSRF_COOKIE) ?? "";
        if (cookie.length < 32 || !sameSecret(cookie, body.csrf ?? "")) return form(ctx, c, "", EXPIRED);
        const entered = await enterUserCode(c.get("deps"), { userCode: body.user_code ?? "" });
        if (!entered.ok) {
          if (entered.error.code !== "oauth_authorization_not_found") throw entered.error;
          return form(ctx, c, (body.user_code ?? "").slice(0, 32), WRONG);
        }
        return c.redirect(entered.value.location, 303);
      },
    ],
  ),
];
