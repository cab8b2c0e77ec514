import { describe, expect, it } from "vitest";
import type { AuditEntry } from "../accounts/index.js";
import { fakeDeps } from "../testing/index.js";
import { adminListAudit } from "./admin-list-audit.js";

function setUp(count: number) {
  const deps = fakeDeps();
  const t0 = deps.clock.now().getTime();
  for (let i = 0; i < count; i++) {
    const entry: AuditEntry = {
      action: i % 2 === 0 ? "login" : "token_refreshed",
      actorId: `id-${i}`,
      actorUsername: i % 3 === 0 ? `Carol${i}@example.com` : `dave${i}@example.com`,
      at: new Date(t0 + i * 1000),
    };
    deps.store.tables.audit.push(entry);
  }
  return deps;
}

const list = async (deps: ReturnType<typeof fakeDeps>, input: Parameters<typeof adminListAudit>[1]) => {
  const result = await adminListAudit(deps, input);
  if (!result.ok) throw result.error;
  return result.value;
};

describe("adminListAudit", () => {
  it("pages newest first, 50 a page by default, with the total", async () => {
    const deps = setUp(60);
    const first = await list(deps, {});
    expect([first.page, first.perPage, first.total, first.entries.length]).toEqual([1, 50, 60, 50]);
    expect(first.entries[0]?.payload).toMatchObject({
      actor_id: "id-59",
      action: "token_refreshed",
      log_type: "token",
    });
    const second = await list(deps, { page: 2, perPage: 50 });
    expect(second.entries.map((e) => e.payload.actor_id)).toEqual(
      Array.from({ length: 10 }, (_, i) => `id-${9 - i}`),
    );
  });

  it("searches author (ignoring case), action and type, and pages the matches", async () => {
    const deps = setUp(12);
    const carol = await list(deps, { query: "author:carol", perPage: 2 });
    expect(carol.total).toBe(4);
    expect(carol.entries.map((e) => e.payload.actor_username)).toEqual([
      "Carol9@example.com",
      "Carol6@example.com",
    ]);
    expect((await list(deps, { query: "action:login" })).total).toBe(6);
    expect((await list(deps, { query: "type:token" })).total).toBe(6);
    expect((await list(deps, { query: "type:account" })).total).toBe(6);
    expect((await list(deps, { query: "author:" })).total).toBe(12);
    expect((await list(deps, { query: "author:100%" })).total).toBe(0);
  });

  it("refuses an unknown scope or a query without one, and bad paging", async () => {
    const deps = setUp(1);
    for (const query of ["actor:x", "login", "constructor:x", "__proto__:x"]) {
      expect(await adminListAudit(deps, { query })).toMatchObject({
        ok: false,
        error: { code: "validation_failed", message: `Invalid query scope: ${query}` },
      });
    }
    expect(await adminListAudit(deps, { page: 0 })).toMatchObject({
      ok: false,
      error: { message: "Bad Pagination Parameters" },
    });
  });
});
