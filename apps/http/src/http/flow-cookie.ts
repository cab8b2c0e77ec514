import type { StartedExternalSignIn } from "@authsvc/core/external";
import { FLOW_STATE_EXPIRY_SECONDS } from "@authsvc/core/pkce";
import type { Context } from "hono";
import { deleteCookie, getCookie, setCookie } from "hono/cookie";
import type { CookieOptions } from "hono/utils/cookie";
import type { AppEnv } from "./app-env.js";

/**
 * The cookie that binds an external sign-in's OAuth `state` to the browser that started it (RFC 9700
 * §4.7). One per flow, named after its state, so that two sign-ins started in two tabs do not
 * overwrite each other's.
 */
export const flowCookieName = (state: string) => `authsvc-flow-${state}`;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Where and how the cookie is sent: only to the callback the provider returns the browser to (the
 * path of the authorization URL's `redirect_uri`; else this server's `/callback` beside the
 * `/authorize` asked), HttpOnly, Secure when that callback is https, for the flow state's lifetime.
 * `SameSite=Lax` lets the provider's top-level redirect carry it; a provider answering with a form
 * post (Apple's `response_mode=form_post`) is a cross-site POST that only a `SameSite=None` (hence
 * Secure) cookie survives.
 */
function cookieOptions(c: Context<AppEnv>, authorizationUrl: string): CookieOptions {
  const request = new URL(c.req.url);
  let callback = new URL(request.pathname.replace(/\/authorize$/, "/callback"), request);
  let formPost = false;
  try {
    const url = new URL(authorizationUrl);
    const redirectUri = url.searchParams.get("redirect_uri");
    if (redirectUri) callback = new URL(redirectUri);
    formPost = url.searchParams.get("response_mode") === "form_post";
  } catch {
    // A provider URL that does not parse keeps the request's own callback path.
  }
  const secure = callback.protocol === "https:";
  return {
    path: callback.pathname,
    httpOnly: true,
    secure: secure || formPost,
    sameSite: formPost ? "None" : "Lax",
    maxAge: FLOW_STATE_EXPIRY_SECONDS,
  };
}

/** Gives the browser the flow's binding; nothing for a flow that is not bound to a browser. */
export function setFlowCookie(c: Context<AppEnv>, started: StartedExternalSignIn): void {
  if (started.browserBinding === null) return;
  setCookie(c, flowCookieName(started.state), started.browserBinding, cookieOptions(c, started.url));
}

/**
 * The binding the browser brought back for `state`, and an order to drop the cookie: the flow is used
 * once, whatever the outcome. Undefined when there is no state or no such cookie.
 */
export function takeFlowCookie(c: Context<AppEnv>, state: string | undefined): string | undefined {
  // Only a state that can be one (a UUID) names a cookie: any other is refused by the use case anyway.
  if (!state || !UUID.test(state)) return undefined;
  const name = flowCookieName(state);
  const value = getCookie(c, name);
  if (value !== undefined) deleteCookie(c, name, { path: new URL(c.req.url).pathname, httpOnly: true });
  return value;
}
