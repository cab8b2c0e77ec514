import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { type HibpRangeFake, sha1Hex, startHibpRangeFake } from "../testing/hibp-range-fake.js";
import { hibpRange } from "./hibp-range.js";

const LEAKED = ["password123", "letmein!", "correct horse battery staple"];
const CLEAN = "a quite unguessable 4c1e9b phrase";

let fake: HibpRangeFake;
beforeAll(async () => {
  fake = await startHibpRangeFake(LEAKED, [CLEAN]);
});
afterAll(() => fake.close());
afterEach(() => {
  fake.mode = "answer";
  fake.release();
  fake.requests.length = 0;
});

const corpus = (extra: Partial<Parameters<typeof hibpRange>[0]> = {}) =>
  hibpRange({ url: fake.url, userAgent: "authsvc-test", ...extra });

describe("hibpRange", () => {
  it("answers leaked and clean from the range of the hash's first five hex digits", async () => {
    const check = corpus();
    expect(await check.check("password123")).toBe("leaked");
    expect(await check.check("correct horse battery staple")).toBe("leaked");
    expect(await check.check(CLEAN)).toBe("clean");
  });

  it("sends only /range/<five upper hex>, with the User-Agent and Add-Padding, and nothing more", async () => {
    const check = corpus();
    const passwords = [...LEAKED, CLEAN];
    for (const password of passwords) await check.check(password);
    expect(fake.requests).toHaveLength(passwords.length);
    for (const [i, request] of fake.requests.entries()) {
      const digest = sha1Hex(passwords[i] as string);
      expect(request.method).toBe("GET");
      expect(request.path).toBe(`/range/${digest.slice(0, 5)}`);
      expect(request.headers["user-agent"]).toBe("authsvc-test");
      expect(request.headers["add-padding"]).toBe("true");
      expect(request.body).toBe("");
      const seen = JSON.stringify(request).toUpperCase();
      for (const password of passwords) {
        expect(seen).not.toContain(password.toUpperCase());
        expect(seen).not.toContain(sha1Hex(password).slice(5, 15));
      }
    }
  });

  it("a padding line (count 0) for the very suffix is not a leak", async () => {
    expect(await corpus().check(CLEAN)).toBe("clean");
  });

  it("coalesces ten concurrent checks of one prefix into one request", async () => {
    const check = corpus();
    fake.hold();
    const checks = Array.from({ length: 10 }, () => check.check("password123"));
    await new Promise((r) => setTimeout(r, 100));
    fake.release();
    expect(await Promise.all(checks)).toEqual(Array(10).fill("leaked"));
    expect(fake.requests).toHaveLength(1);
  });

  it("keeps a range for its time to live, within a bound of entries", async () => {
    let now = 0;
    const check = corpus({ cacheTtlMs: 1000, cacheEntries: 2, now: () => now });
    await check.check("password123");
    await check.check("password123");
    expect(fake.requests).toHaveLength(1);
    now = 1001;
    await check.check("password123");
    expect(fake.requests).toHaveLength(2);
    // Two other ranges push the first out of a cache of two.
    await check.check("letmein!");
    await check.check(CLEAN);
    await check.check("password123");
    expect(fake.requests).toHaveLength(5);
    await check.check(CLEAN);
    expect(fake.requests).toHaveLength(5);
  });

  it("is unavailable, and says why without the password, when the API fails, hangs or is gone", async () => {
    const reasons: string[] = [];
    const check = corpus({ timeoutMs: 200, onUnavailable: (r) => reasons.push(r) });
    fake.mode = "fail";
    expect(await check.check("password123")).toBe("unavailable");
    fake.mode = "hang";
    const started = performance.now();
    expect(await check.check("letmein!")).toBe("unavailable");
    expect(performance.now() - started).toBeLessThan(1500);
    const gone = hibpRange({
      url: "http://127.0.0.1:1",
      userAgent: "x",
      onUnavailable: (r) => reasons.push(r),
    });
    expect(await gone.check(CLEAN)).toBe("unavailable");
    expect(reasons[0]).toMatch(/HTTP 503/);
    expect(reasons[1]).toMatch(/no answer within 200 ms/);
    expect(reasons[2]).toMatch(/fetch failed/);
    for (const reason of reasons) {
      for (const p of ["password123", "letmein!", CLEAN]) {
        expect(reason).not.toContain(p);
        expect(reason.toUpperCase()).not.toContain(sha1Hex(p).slice(0, 5));
      }
    }
    // A failure is not cached: the next check asks again and gets the answer.
    fake.mode = "answer";
    expect(await check.check("password123")).toBe("leaked");
  });

  it("refuses a malformed answer as unavailable", async () => {
    const bad = await startMalformed();
    try {
      expect(await hibpRange({ url: bad.url, userAgent: "x" }).check("password123")).toBe("unavailable");
    } finally {
      await bad.close();
    }
  });
});

async function startMalformed() {
  const { createServer } = await import("node:http");
  const server = createServer((_req, res) => res.writeHead(200).end("<html>not a range</html>"));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as import("node:net").AddressInfo;
  return { url: `http://127.0.0.1:${port}`, close: () => new Promise<void>((r) => server.close(() => r())) };
}
