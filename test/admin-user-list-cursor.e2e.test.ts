import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type FreshNamespace, migratedNamespace } from "@authsvc/adapters/testing";
import { productionServerEnv, roleKey } from "@authsvc/http/testing";
import { GoTrueAdminApi } from "@supabase/auth-js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ServerProcess, startServer } from "./support/server-process.js";

/**
 * GET /admin/users in cursor mode (the reference's keyset pages, `EXPERIMENTAL_CURSOR_PAGINATION_ENABLED`):
 * following `next_cursor` visits every user once, newest first, also users created within one
 * millisecond or at the same microsecond; page numbers keep working beside it.
 */
let server: ServerProcess;
let ns: FreshNamespace;
let key: string;
const cwd = mkdtempSync(join(tmpdir(), "authsvc-user-cursor-"));
const run = Date.now();

beforeAll(async () => {
  ns = await migratedNamespace();
  key = await roleKey("service_role");
  server = await startServer(
    productionServerEnv(ns, {
      AUTHSVC_MAILER_AUTOCONFIRM: "true",
      AUTHSVC_EXPERIMENTAL_CURSOR_PAGINATION_ENABLED: "true",
    }),
    { cwd },
  );
}, 60_000);

afterAll(async () => {
  await server?.stop();
  await ns?.drop();
  rmSync(cwd, { recursive: true, force: true });
});

async function get(query: string) {
  const res = await fetch(`${server.url}/admin/users?${query}`, {
    headers: { authorization: `Bearer ${key}` },
  });
  return {
    status: res.status,
    link: res.headers.get("link"),
    total: res.headers.get("x-total-count"),
    body: await res.json(),
  };
}

type Page = {
  users: { id: string; email: string }[];
  pagination?: { next_cursor?: string; has_more: boolean };
};

describe("GET /admin/users by cursor", () => {
  it("visits every user once, newest first, across ties to the microsecond", async () => {
    const admin = new GoTrueAdminApi({ url: server.url, headers: { Authorization: `Bearer ${key}` } });
    const ids: string[] = [];
    for (let i = 0; i < 11; i++) {
      const made = await admin.createUser({ email: `cursor-${run}-${i}@example.com`, email_confirm: true });
      if (made.error) throw made.error;
      ids.push(made.data.user.id);
    }
    // Four users at one instant, two a microsecond apart within one millisecond.
    const users = ns.sql`${ns.sql(ns.namespace)}.users`;
    await ns.sql`update ${users} set created_at = '2030-01-01T00:00:00.000100Z' where id in ${ns.sql(ids.slice(0, 4))}`;
    await ns.sql`update ${users} set created_at = '2030-01-01T00:00:00.000101Z' where id = ${ids[4] ?? ""}`;
    await ns.sql`update ${users} set created_at = '2030-01-01T00:00:00.000102Z' where id = ${ids[5] ?? ""}`;
    const expected = (
      await ns.sql`select id from ${users} where aud = 'authenticated' order by created_at desc, id desc`
    ).map((r) => String(r.id));

    const seen: string[] = [];
    let query = "limit=3";
    for (let pages = 0; pages < 10; pages++) {
      const page = await get(query);
      expect(page.status).toBe(200);
      expect(page.total).toBeNull();
      const body = page.body as Page;
      seen.push(...body.users.map((u) => u.id));
      if (!body.pagination?.has_more) {
        expect(body.pagination).toEqual({ has_more: false });
        expect(page.link).toBeNull();
        break;
      }
      const next = body.pagination.next_cursor ?? "";
      expect(page.link).toBe(`</admin/users?limit=3&cursor=${next}>; rel="next"`);
      query = `limit=3&cursor=${next}`;
    }
    expect(seen).toEqual(expected);
    expect(seen).toHaveLength(11);
  });

  it("keeps the filter across pages; page numbers and auth-js's listUsers still work beside it", async () => {
    const first = (await get(`filter=cursor-${run}-1&limit=1`)).body as Page;
    // cursor-…-1 and cursor-…-10 match.
    expect(first.users).toHaveLength(1);
    const second = (await get(`filter=cursor-${run}-1&limit=1&cursor=${first.pagination?.next_cursor}`))
      .body as Page;
    expect(second.users).toHaveLength(1);
    expect(second.pagination).toEqual({ has_more: false });
    expect(new Set([...first.users, ...second.users].map((u) => u.email))).toEqual(
      new Set([`cursor-${run}-1@example.com`, `cursor-${run}-10@example.com`]),
    );

    const numbered = await get("page=2&per_page=4");
    expect(numbered.status).toBe(200);
    expect(numbered.total).toBe("11");
    expect((numbered.body as Page).users).toHaveLength(4);
    expect((numbered.body as Page).pagination).toBeUndefined();
    const admin = new GoTrueAdminApi({ url: server.url, headers: { Authorization: `Bearer ${key}` } });
    const listed = await admin.listUsers({ page: 1, perPage: 5 });
    expect(listed.error).toBeNull();
    expect(listed.data.users).toHaveLength(5);
  });

  it("refuses a cursor it did not make and a limit of 0 (400 validation_failed)", async () => {
    for (const query of [
      "cursor=not-json",
      `cursor=${Buffer.from('{"id":"x"}').toString("base64url")}`,
      "limit=0",
    ]) {
      const answer = await get(query);
      expect(answer.status, query).toBe(400);
      expect(answer.body).toMatchObject({ error_code: "validation_failed" });
    }
  });
});
