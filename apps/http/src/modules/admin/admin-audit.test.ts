import { describe, expect, it } from "vitest";
import { bearer, NEW_API, send } from "../../testing/requests.js";
import { testApp } from "../../testing/test-app.js";

async function withEntries(count: number) {
  const t = testApp();
  const t0 = t.auth.clock.now().getTime();
  for (let i = 0; i < count; i++) {
    await t.auth.store.audit.record({
      action: i % 2 === 0 ? "login" : "logout",
      actorId: `00000000-0000-4000-8000-${String(i).padStart(12, "0")}`,
      actorUsername: `user${i}@example.com`,
      at: new Date(t0 + i * 1000),
    });
  }
  return { ...t, headers: await bearer(t.auth, { role: "service_role" }) };
}

describe("GET /admin/audit", () => {
  it("answers a page of entries newest first, with X-Total-Count and Link as the admin user list", async () => {
    const { app, headers, auth } = await withEntries(5);
    const res = await send(app, "GET", "/admin/audit?page=1&per_page=2", undefined, headers);
    expect(res.status).toBe(200);
    expect(res.headers.get("x-total-count")).toBe("5");
    expect(res.headers.get("link")).toBe(
      '</admin/audit?page=2&per_page=2>; rel="next", </admin/audit?page=3&per_page=2>; rel="last"',
    );
    const body = (await res.json()) as Record<string, unknown>[];
    expect(body).toHaveLength(2);
    expect(body[0]).toEqual({
      id: expect.any(String),
      payload: {
        actor_id: "00000000-0000-4000-8000-000000000004",
        actor_username: "user4@example.com",
        actor_via_sso: false,
        action: "login",
        log_type: "account",
      },
      created_at: new Date(auth.clock.now().getTime() + 4000).toISOString(),
      ip_address: "",
    });
  });

  it("filters by query and keeps it in the Link header", async () => {
    const { app, headers } = await withEntries(5);
    const res = await send(app, "GET", "/admin/audit?query=action:logout&per_page=1", undefined, headers);
    expect(res.headers.get("x-total-count")).toBe("2");
    expect(res.headers.get("link")).toBe(
      '</admin/audit?page=2&per_page=1&query=action%3Alogout>; rel="next", </admin/audit?page=2&per_page=1&query=action%3Alogout>; rel="last"',
    );
    expect(((await res.json()) as { payload: { action: string } }[]).map((e) => e.payload.action)).toEqual([
      "logout",
    ]);
    const author = await send(app, "GET", "/admin/audit?query=author:USER3", undefined, headers);
    expect(((await author.json()) as unknown[]).length).toBe(1);
  });

  it("refuses a bad query or bad paging with 400 validation_failed", async () => {
    const { app, headers } = await withEntries(1);
    const scope = await send(app, "GET", "/admin/audit?query=who:me", undefined, { ...headers, ...NEW_API });
    expect(scope.status).toBe(400);
    expect(await scope.json()).toEqual({ code: "validation_failed", message: "Invalid query scope: who:me" });
    for (const paging of ["page=0", "per_page=x", "page=-1"]) {
      const res = await send(app, "GET", `/admin/audit?${paging}`, undefined, headers);
      expect(res.status).toBe(400);
      expect(await res.json()).toMatchObject({ msg: "Bad Pagination Parameters" });
    }
  });

  it("needs an admin role", async () => {
    const { app, auth } = await withEntries(1);
    expect((await send(app, "GET", "/admin/audit")).status).toBe(401);
    const user = await bearer(auth, { role: "authenticated", sub: "00000000-0000-4000-8000-000000000001" });
    expect((await send(app, "GET", "/admin/audit", undefined, user)).status).toBe(403);
  });
});
