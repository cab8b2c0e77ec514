import type { LimitWindow } from "@authsvc/adapters";
import type { RequestLimiter } from "@authsvc/core/guards";
import { describe, expect, it } from "vitest";
import type { RateLimits } from "../../http/middleware/rate-limit.js";
import { testApp } from "../../testing/test-app.js";

const LIMITS: RateLimits = {
  header: "X-Forwarded-For",
  tokenPer5Min: 150,
  verifyPer5Min: 30,
  otpPer5Min: 30,
  authorizePer5Min: 30,
};

/** An app over fakes with `rateLimit`, behind one proxy (the client is the last X-Forwarded-For entry). */
function app(rateLimit: RateLimits | undefined, saml: { enabled: boolean } = { enabled: true }) {
  const base = testApp().auth.settings;
  const t = testApp(
    { ...(rateLimit ? { rateLimit } : {}), trustedProxyHops: 1 },
    // Slow rates: a test's requests all fall in one window.
    { sso: { ...base.sso, ...saml, rateLimitSsoPer5Min: 3, rateLimitAssertionPer5Min: 3 } },
  );
  const post = (path: string, ip: string, body = "{}") =>
    t.app.request(path, {
      method: "POST",
      headers: { "content-type": "application/json", "X-Forwarded-For": ip },
      body,
    });
  /** Statuses of `times` identical posts, in order. */
  const statuses = async (times: number, path: string, ip: string) => {
    const result: number[] = [];
    for (let i = 0; i < times; i++) result.push((await post(path, ip)).status);
    return result;
  };
  return { ...t, post, statuses };
}

describe("ssoLimit", () => {
  it("lets each client 30 requests to POST /sso, then answers 429 over_request_rate_limit", async () => {
    const { post, statuses } = app(LIMITS);
    expect(await statuses(30, "/sso", "1.2.3.4")).toEqual(Array(30).fill(400));
    const over = await post("/sso", "1.2.3.4");
    expect(over.status).toBe(429);
    expect(await over.json()).toMatchObject({ error_code: "over_request_rate_limit" });
    // Another client, and the ACS (counted apart), are not affected.
    expect((await post("/sso", "5.6.7.8")).status).toBe(400);
    expect((await post("/sso/saml/acs", "1.2.3.4")).status).toBe(303);
  });

  it("counts POST /sso/saml/acs on its own", async () => {
    const { post, statuses } = app(LIMITS);
    expect(await statuses(30, "/sso/saml/acs", "1.2.3.4")).toEqual(Array(30).fill(303));
    expect((await post("/sso/saml/acs", "1.2.3.4")).status).toBe(429);
    expect((await post("/sso", "1.2.3.4")).status).toBe(400);
  });

  it("counts nothing without RATE_LIMIT_HEADER", async () => {
    const { statuses } = app({ ...LIMITS, header: undefined });
    expect(await statuses(40, "/sso", "1.2.3.4")).not.toContain(429);
    expect(await statuses(40, "/sso/saml/acs", "1.2.3.4")).not.toContain(429);
  });

  it("builds its limiters with the configured store, a window per route at the SAML rates", async () => {
    const windows: LimitWindow[] = [];
    const refusing = (window: LimitWindow): RequestLimiter => {
      windows.push(window);
      return { take: async () => false };
    };
    const { post } = app({ ...LIMITS, limiter: refusing });
    expect(windows).toEqual(
      expect.arrayContaining([
        { name: "sso", points: 30, durationSec: 3000 },
        { name: "saml_assertion", points: 30, durationSec: 3000 },
      ]),
    );
    expect((await post("/sso", "1.2.3.4")).status).toBe(429);
    expect((await post("/sso/saml/acs", "1.2.3.4")).status).toBe(429);
    // The metadata is not limited.
    expect((await app({ ...LIMITS, limiter: refusing }).app.request("/sso/saml/metadata")).status).toBe(200);
  });
});

describe("requireSaml", () => {
  it("answers 404 saml_provider_disabled before reading the body or counting the request", async () => {
    const { post, statuses } = app(LIMITS, { enabled: false });
    const unreadable = await post("/sso", "1.2.3.4", "{");
    expect(unreadable.status).toBe(404);
    expect(await unreadable.json()).toMatchObject({ error_code: "saml_provider_disabled" });
    expect(await statuses(40, "/sso", "1.2.3.4")).toEqual(Array(40).fill(404));
    expect(await statuses(40, "/sso/saml/acs", "1.2.3.4")).toEqual(Array(40).fill(404));
  });
});
