import { memoryLimiterStore } from "@authsvc/adapters";
import { fakeProviders } from "@authsvc/core/testing";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { testApp } from "../../testing/test-app.js";
import { limitWindow, type RateLimits } from "./rate-limit.js";

const LIMITS: RateLimits = {
  header: "X-Forwarded-For",
  tokenPer5Min: 150,
  verifyPer5Min: 30,
  otpPer5Min: 30,
  authorizePer5Min: 30,
};

// The limiters read Date.now(); the tests move it.
beforeEach(() => {
  vi.useFakeTimers({ toFake: ["Date"], now: new Date("2026-01-01T00:00:00Z") });
});
afterEach(() => {
  vi.useRealTimers();
});

/** An app with per-IP limits, a clock the test moves, and a way to send many requests. */
function limitedApp(rateLimit: RateLimits | null = LIMITS) {
  const clock = {
    set now(ms: number) {
      vi.setSystemTime(new Date("2026-01-01T00:00:00Z").getTime() + ms);
    },
    get now() {
      return Date.now() - new Date("2026-01-01T00:00:00Z").getTime();
    },
  };
  // One proxy in front: the client is the last X-Forwarded-For entry (in-process requests have no peer).
  const { app } = testApp(rateLimit ? { rateLimit, trustedProxyHops: 1 } : { trustedProxyHops: 1 });
  const send = (method: string, path: string, headers: Record<string, string> = {}) =>
    app.request(path, {
      method,
      headers: { "content-type": "application/json", ...headers },
      ...(method === "GET" ? {} : { body: "{}" }),
    });
  /** Statuses of `times` identical requests, in order. */
  const statuses = async (times: number, method: string, path: string, headers?: Record<string, string>) => {
    const result: number[] = [];
    for (let i = 0; i < times; i++) result.push((await send(method, path, headers)).status);
    return result;
  };
  return { clock, send, statuses };
}

const from = (ip: string) => ({ "X-Forwarded-For": ip });

describe("limitWindow", () => {
  it("spends the burst of 30 at the configured rate", () => {
    expect(limitWindow("verify", 30)).toEqual({ name: "verify", points: 30, durationSec: 300 });
    expect(limitWindow("token", 150)).toEqual({ name: "token", points: 30, durationSec: 60 });
    expect(limitWindow("otp", 9_000)).toEqual({ name: "otp", points: 30, durationSec: 1 });
    expect(limitWindow("otp", 100_000)).toEqual({ name: "otp", points: 333, durationSec: 1 });
  });
});

describe("per-IP request limits", () => {
  it("counts the web3 grant on RATE_LIMIT_WEB3, apart from the other grants", async () => {
    const { send, statuses } = limitedApp({ ...LIMITS, web3Per5Min: 30 });
    expect(await statuses(30, "POST", "/token?grant_type=web3", from("1.2.3.4"))).not.toContain(429);
    expect((await send("POST", "/token?grant_type=web3", from("1.2.3.4"))).status).toBe(429);
    // The token limit of this client is untouched by those 31.
    expect(await statuses(30, "POST", "/token?grant_type=password", from("1.2.3.4"))).not.toContain(429);
    expect((await send("POST", "/token?grant_type=password", from("1.2.3.4"))).status).toBe(429);
  });

  it("counts only the methods an endpoint declares: another method is answered 405 and costs the client nothing", async () => {
    const { send, statuses } = limitedApp();
    expect(new Set(await statuses(40, "GET", "/signup", from("1.2.3.4")))).toEqual(new Set([405]));
    expect(new Set(await statuses(40, "PUT", "/token", from("1.2.3.4")))).toEqual(new Set([405]));
    expect((await send("POST", "/signup", from("1.2.3.4"))).status).not.toBe(429);
    expect((await send("POST", "/token?grant_type=password", from("1.2.3.4"))).status).not.toBe(429);
  });

  it("refuses the 31st /verify from one IP within the window with 429 over_request_rate_limit", async () => {
    const { send, statuses } = limitedApp();
    const before = await statuses(30, "POST", "/verify", from("1.2.3.4"));
    expect(before).not.toContain(429);
    const res = await send("POST", "/verify", from("1.2.3.4"));
    expect(res.status).toBe(429);
    expect(res.headers.get("x-sb-error-code")).toBe("over_request_rate_limit");
    expect(await res.json()).toEqual({
      code: 429,
      error_code: "over_request_rate_limit",
      msg: "Request rate limit reached",
    });
  });

  it("counts GET and POST /verify together, and answers in the requested API version's shape", async () => {
    const { send, statuses } = limitedApp();
    await statuses(15, "GET", "/verify?type=signup&token=x", from("1.2.3.4"));
    await statuses(15, "POST", "/verify", from("1.2.3.4"));
    const res = await send("GET", "/verify?type=signup&token=x", {
      ...from("1.2.3.4"),
      "X-Supabase-Api-Version": "2024-01-01",
    });
    expect(res.status).toBe(429);
    expect(await res.json()).toEqual({
      code: "over_request_rate_limit",
      message: "Request rate limit reached",
    });
  });

  it("does not limit another IP, and lets the limited one in again when its window ends", async () => {
    const { clock, statuses } = limitedApp();
    expect((await statuses(31, "POST", "/verify", from("1.2.3.4"))).at(-1)).toBe(429);
    expect(await statuses(30, "POST", "/verify", from("5.6.7.8"))).not.toContain(429);
    clock.now += 299_000; // 30 per 5 minutes: the window is 5 minutes
    expect(await statuses(1, "POST", "/verify", from("1.2.3.4"))).toEqual([429]);
    clock.now += 1_000;
    const next = await statuses(31, "POST", "/verify", from("1.2.3.4"));
    expect(next.slice(0, 30)).not.toContain(429);
    expect(next.at(-1)).toBe(429);
  });

  it("counts the requests of every app instance on one shared store together", async () => {
    const store = memoryLimiterStore();
    const one = testApp({ rateLimit: { ...LIMITS, limiter: store.limiter }, trustedProxyHops: 1 }).app;
    const two = testApp({ rateLimit: { ...LIMITS, limiter: store.limiter }, trustedProxyHops: 1 }).app;
    const post = (app: typeof one) =>
      Promise.resolve(app.request("/verify", { method: "POST", headers: from("1.2.3.4"), body: "{}" })).then(
        (r) => r.status,
      );
    const seen: number[] = [];
    for (let i = 0; i < 15; i++) seen.push(await post(one), await post(two));
    expect(seen).not.toContain(429);
    expect([await post(one), await post(two)]).toEqual([429, 429]);
  });

  it("counts the client address the trusted proxy appended, not the entries the client wrote", async () => {
    const { statuses } = limitedApp();
    // Ten chosen leftmost entries, one client behind them: one count, not ten.
    const forged = Array.from({ length: 40 }, (_, i) => from(`192.0.2.${i % 10}, 198.51.100.7`));
    const seen: number[] = [];
    for (const headers of forged) seen.push(...(await statuses(1, "POST", "/verify", headers)));
    expect(seen.slice(0, 30)).not.toContain(429);
    expect(seen.slice(30)).toEqual(Array(10).fill(429));
    // The forged entries name nobody: as a client of their own they have their whole budget.
    expect(await statuses(1, "POST", "/verify", from("192.0.2.1"))).not.toContain(429);
  });

  it("counts an IPv6 client by its /64, whichever address in it each request comes from", async () => {
    const { statuses } = limitedApp();
    const seen: number[] = [];
    for (let i = 0; i < 31; i++)
      seen.push(...(await statuses(1, "POST", "/verify", from(`2001:db8:1:2::${i + 1}`))));
    expect(seen.slice(0, 30)).not.toContain(429);
    expect(seen[30]).toBe(429);
    expect(await statuses(1, "POST", "/verify", from("2001:db8:1:2:ffff:ffff:ffff:ffff"))).toEqual([429]);
    // The next /64 is another client.
    expect(await statuses(1, "POST", "/verify", from("2001:db8:1:3::1"))).not.toContain(429);
  });

  it("never limits when no header is configured", async () => {
    const { statuses } = limitedApp({ ...LIMITS, header: undefined });
    expect(await statuses(40, "POST", "/verify", from("1.2.3.4"))).not.toContain(429);
  });

  it("never limits without rate limits in the app's dependencies", async () => {
    const { statuses } = limitedApp(null);
    expect(await statuses(40, "POST", "/otp", from("1.2.3.4"))).not.toContain(429);
  });

  it("does not limit a request without a client address (in-process, no X-Forwarded-For)", async () => {
    const { statuses } = limitedApp();
    expect(await statuses(40, "POST", "/verify")).not.toContain(429);
    expect(await statuses(40, "POST", "/verify", { "X-Forwarded-For": " " })).not.toContain(429);
  });

  it("limits /token after a burst of 30, in a shorter window for its higher rate", async () => {
    const { clock, statuses } = limitedApp();
    expect((await statuses(31, "POST", "/token?grant_type=password", from("1.2.3.4"))).at(-1)).toBe(429);
    clock.now += 60_000; // 150 per 5 minutes: 30 every minute
    const next = await statuses(31, "POST", "/token?grant_type=refresh_token", from("1.2.3.4"));
    expect(next.slice(0, 30)).not.toContain(429);
    expect(next.at(-1)).toBe(429);
  });

  it.each(["/otp", "/magiclink", "/recover", "/resend", "/signup"])(
    "limits %s in a bucket of its own",
    async (path) => {
      const { statuses } = limitedApp();
      expect((await statuses(31, "POST", path, from("1.2.3.4"))).at(-1)).toBe(429);
      const others = ["/otp", "/magiclink", "/recover", "/resend", "/signup", "/verify"].filter(
        (p) => p !== path,
      );
      for (const other of others) {
        expect(await statuses(1, "POST", other, from("1.2.3.4")), other).not.toContain(429);
      }
    },
  );

  it("limits PUT /user but not GET /user", async () => {
    const { statuses } = limitedApp();
    expect(await statuses(40, "GET", "/user", from("1.2.3.4"))).not.toContain(429);
    const puts = await statuses(31, "PUT", "/user", from("1.2.3.4"));
    expect(puts.slice(0, 30)).not.toContain(429);
    expect(puts.at(-1)).toBe(429);
    expect(await statuses(1, "GET", "/user", from("1.2.3.4"))).toEqual([401]);
    expect(await statuses(1, "DELETE", "/user", from("1.2.3.4"))).toEqual([405]);
  });

  it("limits GET /authorize, whose every start stores a flow state, in a bucket of its own", async () => {
    const { app, auth } = testApp({ rateLimit: { ...LIMITS, authorizePer5Min: 60 }, trustedProxyHops: 1 });
    const idp = fakeProviders("keycloak");
    auth.providers = idp.providers;
    const start = () => app.request("/authorize?provider=keycloak", { headers: from("1.2.3.4") });
    const started: number[] = [];
    for (let i = 0; i < 30; i++) started.push((await start()).status);
    expect(new Set(started)).toEqual(new Set([302]));
    const refused = await start();
    expect(refused.status).toBe(429);
    expect(await refused.json()).toMatchObject({ error_code: "over_request_rate_limit" });
    expect(idp.requests).toHaveLength(30);
    expect(auth.store.tables.flowStates.size).toBe(30);
    const other = await app.request("/authorize?provider=keycloak", { headers: from("5.6.7.8") });
    expect(other.status).toBe(302);
    const verify = await app.request("/verify", { method: "POST", headers: from("1.2.3.4"), body: "{}" });
    expect(verify.status).not.toBe(429);
    vi.setSystemTime(Date.now() + 150_000); // 60 per 5 minutes: 30 every 150 s
    expect((await start()).status).toBe(302);
  });

  it("uses the configured limits", async () => {
    const { clock, statuses } = limitedApp({ ...LIMITS, otpPer5Min: 300 });
    await statuses(30, "POST", "/recover", from("1.2.3.4"));
    clock.now += 29_000; // 300 per 5 minutes: 30 every 30 s
    expect(await statuses(1, "POST", "/recover", from("1.2.3.4"))).toEqual([429]);
    clock.now += 1_000;
    expect(await statuses(1, "POST", "/recover", from("1.2.3.4"))).not.toContain(429);
  });
});
