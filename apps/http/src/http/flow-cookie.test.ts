import { Hono } from "hono";
import { describe, expect, it } from "vitest";
import type { AppEnv } from "./app-env.js";
import { setFlowCookie } from "./flow-cookie.js";

const STATE = "6f1c2a8e-3b9d-4c55-9a0e-1d2f3a4b5c6d";

/** The cookie `/authorize` sets for a provider whose authorization URL is `url`. */
async function cookieFor(url: string, browserBinding: string | null = "binding") {
  const app = new Hono<AppEnv>().get("/auth/v1/authorize", (c) => {
    setFlowCookie(c, { url, state: STATE, browserBinding });
    return c.redirect(url, 302);
  });
  const res = await app.request("http://localhost:9999/auth/v1/authorize");
  return res.headers.getSetCookie();
}

const attributes = (cookies: string[]) => cookies[0]?.split("; ").slice(1).sort();

describe("the flow cookie", () => {
  it("goes only to the provider's redirect_uri path, Secure when that is https", async () => {
    const url = "https://idp.example/auth?redirect_uri=https%3A%2F%2Fauth.example.com%2Fauth%2Fv1%2Fcallback";
    const cookies = await cookieFor(url);
    expect(cookies[0]).toMatch(new RegExp(`^authsvc-flow-${STATE}=binding; `));
    expect(attributes(cookies)).toEqual([
      "HttpOnly",
      "Max-Age=300",
      "Path=/auth/v1/callback",
      "SameSite=Lax",
      "Secure",
    ]);
  });

  it("survives a form post callback (SameSite=None, Secure)", async () => {
    const url =
      "https://appleid.example/auth?response_mode=form_post&redirect_uri=https%3A%2F%2Fa.example%2Fcallback";
    expect(attributes(await cookieFor(url))).toEqual([
      "HttpOnly",
      "Max-Age=300",
      "Path=/callback",
      "SameSite=None",
      "Secure",
    ]);
  });

  it("falls back to the callback beside the /authorize asked; none for an unbound flow", async () => {
    expect(attributes(await cookieFor("https://idp.example/auth"))).toEqual([
      "HttpOnly",
      "Max-Age=300",
      "Path=/auth/v1/callback",
      "SameSite=Lax",
    ]);
    expect(await cookieFor("https://idp.example/auth", null)).toEqual([]);
  });
});
