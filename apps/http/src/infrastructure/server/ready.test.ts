import { describe, expect, it } from "vitest";
import { testApp } from "../../testing/test-app.js";

describe("GET /health/ready", () => {
  it("answers 200 with every dependency ok", async () => {
    const { app } = testApp({ readiness: [{ name: "database", check: async () => {} }] });
    const res = await app.request("/health/ready");
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ status: "ok", checks: { database: "ok" } });
  });

  it("answers 503 naming the dependency that failed", async () => {
    const { app } = testApp({
      readiness: [
        { name: "database", check: () => Promise.reject(new Error("connection refused")) },
        { name: "other", check: async () => {} },
      ],
    });
    const res = await app.request("/health/ready");
    expect(res.status).toBe(503);
    expect(await res.json()).toEqual({ status: "unavailable", checks: { database: "down", other: "ok" } });
  });

  it("counts a dependency that does not answer in time as down", async () => {
    const { app } = testApp({
      readiness: [{ name: "database", check: () => new Promise<void>(() => {}) }],
      readinessTimeoutMs: 50,
    });
    const started = performance.now();
    const res = await app.request("/health/ready");
    expect(res.status).toBe(503);
    expect(await res.json()).toEqual({ status: "unavailable", checks: { database: "down" } });
    expect(performance.now() - started).toBeLessThan(2_000);
  });

  it("names a misconfiguration in warnings without answering unready", async () => {
    const { app } = testApp({
      readiness: [{ name: "database", check: async () => {} }],
      readinessWarnings: { mail: "no mail can be sent" },
    });
    const res = await app.request("/health/ready");
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({
      status: "ok",
      checks: { database: "ok" },
      warnings: { mail: "no mail can be sent" },
    });
  });
});
