import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { connectTestDatabase, type FreshNamespace, migratedNamespace } from "../testing/database.js";
import { postgresSendQuota } from "./messaging-store.js";

describe("postgresSendQuota", () => {
  let ns: FreshNamespace;
  beforeAll(async () => {
    ns = await migratedNamespace();
  });
  afterAll(async () => ns.drop());

  const hour = 3_600_000;
  const at = (iso: string) => new Date(iso);

  it("allows `limit` sends per window, then refuses, and starts again in the next window", async () => {
    const quota = postgresSendQuota(ns.sql, { namespace: ns.namespace });
    const results = [];
    for (let i = 0; i < 4; i++) results.push(await quota.take("email", 3, hour, at("2026-01-01T10:15:00Z")));
    expect(results).toEqual([true, true, true, false]);
    expect(await quota.take("email", 3, hour, at("2026-01-01T10:59:59Z"))).toBe(false);
    expect(await quota.take("email", 3, hour, at("2026-01-01T11:00:00Z"))).toBe(true);
    expect(await quota.take("other", 3, hour, at("2026-01-01T10:30:00Z"))).toBe(true);
  });

  it("never exceeds the limit under concurrency from two pools", async () => {
    const second = connectTestDatabase({ maxPoolSize: 4 });
    const a = postgresSendQuota(ns.sql, { namespace: ns.namespace });
    const b = postgresSendQuota(second, { namespace: ns.namespace });
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        (i % 2 ? a : b).take("burst", 7, hour, at("2026-02-01T00:00:00Z")),
      ),
    );
    await second.end();
    expect(results.filter(Boolean)).toHaveLength(7);
  });

  it("a limit of 0 refuses everything", async () => {
    const quota = postgresSendQuota(ns.sql, { namespace: ns.namespace });
    expect(await quota.take("zero", 0, hour, new Date())).toBe(false);
  });
});
