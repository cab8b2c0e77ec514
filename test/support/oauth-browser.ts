import { expect } from "vitest";
import { cookieJar } from "./openid-provider.js";

/**
 * A browser for external sign-in tests: it follows the redirects through the server's `/authorize`
 * and the provider (`oidc-provider`'s login and consent pages), and keeps the cookies the server
 * sets, as a browser does, so that `/callback` carries them back. `fresh()` is another browser on
 * another machine: no cookies.
 */
export function oauthBrowser(options: { serverUrl: string; providerOrigin: string; callbackUrl: string }) {
  const server = cookieJar();

  /** Follows `start` through the provider, signing in as `account`; answers the redirect to /callback. */
  async function throughProvider(start: string, account: string, consent: "allow" | "deny" = "allow") {
    const jar = cookieJar();
    let url = new URL(start);
    let init: RequestInit = {};
    for (let step = 0; step < 20; step++) {
      const own = url.origin === new URL(options.serverUrl).origin;
      const res = await fetch(url, {
        ...init,
        redirect: "manual",
        headers: { ...init.headers, cookie: (own ? server : jar).header() },
      });
      (own ? server : jar).keep(res);
      init = {};
      const location = res.headers.get("location");
      if (location) {
        const next = new URL(location, url);
        if (next.origin !== options.providerOrigin && next.origin !== new URL(options.serverUrl).origin) {
          return next;
        }
        url = next;
        continue;
      }
      const html = await res.text();
      expect(res.status, html).toBe(200);
      const action = new URL(/<form[^>]*action="([^"]+)"/.exec(html)?.[1] ?? "", url);
      if (html.includes('name="login"')) {
        const body = new URLSearchParams({ prompt: "login", login: account, password: "any-password" });
        init = { method: "POST", body, headers: { "content-type": "application/x-www-form-urlencoded" } };
        url = action;
      } else if (consent === "deny") {
        url = new URL(/href="([^"]*abort[^"]*)"/.exec(html)?.[1] ?? "", url);
      } else {
        const body = new URLSearchParams({ prompt: "consent" });
        init = { method: "POST", body, headers: { "content-type": "application/x-www-form-urlencoded" } };
        url = action;
      }
    }
    throw new Error("the provider never redirected back");
  }

  /**
   * The provider's redirect to /callback, sent to the server (the public address maps to it) with
   * this browser's cookies, or with none (`from: "another browser"`).
   */
  async function callback(back: URL, from: "this browser" | "another browser" = "this browser") {
    expect(`${back.origin}${back.pathname}`).toBe(options.callbackUrl);
    const headers = from === "this browser" ? { cookie: server.header() } : undefined;
    const res = await fetch(`${options.serverUrl}/callback${back.search}`, { redirect: "manual", headers });
    server.keep(res);
    return { status: res.status, landing: new URL(res.headers.get("location") ?? "") };
  }

  /** A request to the server from this browser (its cookies sent and kept). */
  async function visit(url: string) {
    const res = await fetch(url, { redirect: "manual", headers: { cookie: server.header() } });
    server.keep(res);
    return res;
  }

  return { throughProvider, callback, visit, cookies: () => server.header() };
}
