import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { testApp } from "../../testing/test-app.js";

beforeEach(() => {
  vi.useFakeTimers({ toFake: ["Date"] });
  vi.setSystemTime(new Date("2026-01-01T00:00:00Z"));
});
afterEach(() => {
  vi.useRealTimers();
});

const LIMITS = {
  header: "X-Forwarded-For",
  tokenPer5Min: 150,
  verifyPer5Min: 30,
  otpPer5Min: 30,
  authorizePer5Min: 30,
  passkeyPer5Min: 60,
};
const from = (ip: string) => ({ "X-Forwarded-For": ip, "content-type": "application/json" });

describe("RATE_LIMIT_PASSKEY", () => {
  it("limits the starts of passkey sign-ins, each of which stores a challenge, in a bucket of its own", async () => {
    const { app, auth } = testApp({ rateLimit: LIMITS, trustedProxyHops: 1 });
    const start = (ip = "1.2.3.4") =>
      app.request("/passkeys/authentication/options", { method: "POST", headers: from(ip), body: "{}" });
    const started: number[] = [];
    for (let i = 0; i < 30; i++) started.push((await start()).status);
    expect(new Set(started)).toEqual(new Set([200]));
    const refused = await start();
    expect(refused.status).toBe(429);
    expect(await refused.json()).toMatchObject({ error_code: "over_request_rate_limit" });
    expect(auth.store.tables.webauthnChallenges.size).toBe(30);
    expect((await start("5.6.7.8")).status).toBe(200);
    const verify = await app.request("/passkeys/authentication/verify", {
      method: "POST",
      headers: from("1.2.3.4"),
      body: "{}",
    });
    expect(verify.status).toBe(400);
    vi.setSystemTime(Date.now() + 150_000); // 60 per 5 minutes: 30 every 150 s
    expect((await start()).status).toBe(200);
  });
});
