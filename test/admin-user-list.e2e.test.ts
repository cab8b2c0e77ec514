import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type FreshNamespace, migratedNamespace } from "@authsvc/adapters/testing";
import { productionServerEnv, roleKey } from "@authsvc/http/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ServerProcess, startServer } from "./support/server-process.js";

/**
 * GET /admin/users as an administrator sees it: `X-Total-Count` stays the number of users while
 * sign-ups, creations and deletions run at once, pages from both ends of the list, and `filter`.
 */
let server: ServerProcess;
let ns: FreshNamespace;
let admin: Record<string, string>;
const cwd = mkdtempSync(join(tmpdir(), "authsvc-admin-user-list-"));

beforeAll(async () => {
  ns = await migratedNamespace();
  admin = { authorization: `Bearer ${await roleKey("service_role")}` };
  server = await startServer(productionServerEnv(ns, { AUTHSVC_MAILER_AUTOCONFIRM: "true" }), { cwd });
}, 60_000);

afterAll(async () => {
  await server?.stop();
  await ns?.drop();
  rmSync(cwd, { recursive: true, force: true });
});

async function call(method: string, path: string, body?: unknown, headers: Record<string, string> = admin) {
  const res = await fetch(`${server.url}${path}`, {
    method,
    headers: { "content-type": "application/json", ...headers },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await res.text();
  return { status: res.status, headers: res.headers, body: text ? JSON.parse(text) : {} };
}

async function list(query: string) {
  const res = await call("GET", `/admin/users?${query}`);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return {
    emails: (res.body.users as { email: string }[]).map((u) => u.email),
    total: Number(res.headers.get("x-total-count")),
    link: res.headers.get("link") ?? "",
  };
}

const users = () => ns.sql`${ns.sql(ns.namespace)}.users`;
const countedUsers = async () =>
  Number((await ns.sql`select count(*) as n from ${users()} where aud = 'authenticated'`)[0]?.n);

let n = 0;
const email = (tag: string) => `${tag}-${++n}@example.com`;

describe("GET /admin/users", () => {
  it("X-Total-Count is count(*) after concurrent sign-ups, creations, deletions and bulk writes", async () => {
    const created = await Promise.all(
      Array.from({ length: 12 }, () =>
        call("POST", "/admin/users", { email: email("early"), password: "pw-123456" }),
      ),
    );
    const ids = created.map((r) => {
      expect(r.status).toBe(200);
      return r.body.id as string;
    });
    const answers = await Promise.all([
      ...Array.from({ length: 16 }, () =>
        call("POST", "/signup", { email: email("signup"), password: "pw-123456" }, {}),
      ),
      ...Array.from({ length: 8 }, () =>
        call("POST", "/admin/users", { email: email("admin"), password: "pw-123456" }),
      ),
      ...ids.slice(0, 8).map((id) => call("DELETE", `/admin/users/${id}`, {})),
      // A soft deletion keeps the row: the user is still counted, as count(*) counts it.
      ...ids.slice(8, 10).map((id) => call("DELETE", `/admin/users/${id}`, { should_soft_delete: true })),
      // Two deletions of one user: one removes it, the other finds none; it is taken off once.
      call("DELETE", `/admin/users/${ids[10]}`, {}),
      call("DELETE", `/admin/users/${ids[10]}`, {}),
    ]);
    const statuses = answers.map((a) => a.status);
    expect(statuses.slice(0, -2)).toEqual(Array(34).fill(200));
    expect([
      [200, 200],
      [200, 404],
    ]).toContainEqual(statuses.slice(-2).sort());
    expect((await list("per_page=1")).total).toBe(await countedUsers());

    // Many users in one statement, and a statement deleting several, count as many.
    await ns.sql`
      insert into ${users()} (id, aud, role, email, created_at)
      select gen_random_uuid(), 'authenticated', 'authenticated', 'bulk-' || g || '@example.com', now()
      from generate_series(1, 500) g
    `;
    await ns.sql`delete from ${users()} where email like 'bulk-1%'`;
    await ns.sql`update ${users()} set aud = 'elsewhere' where email like 'bulk-2%'`;
    const total = await countedUsers();
    expect(total).toBe(12 + 16 + 8 - 8 - 1 + 500 - 111 - 111);
    expect((await list("per_page=1")).total).toBe(total);
  });

  it("serves every page, from the newest end and from the oldest, and an empty one past the end", async () => {
    const all = (await list("per_page=1000")).emails;
    const perPage = 7;
    const pages = Math.ceil(all.length / perPage);
    const seen: string[] = [];
    for (let page = 1; page <= pages + 1; page++)
      seen.push(...(await list(`page=${page}&per_page=${perPage}`)).emails);
    expect(seen).toEqual(all);
    const last = await list(`page=${pages}&per_page=${perPage}`);
    expect(last.link).toBe(`</admin/users?page=${pages}&per_page=${perPage}>; rel="last"`);
  });

  it("filters on a part of the email or of the full name, and keeps the filter in Link", async () => {
    const wanted = [email("Zebra.Crossing"), email("plain")];
    await call("POST", "/admin/users", { email: wanted[0], password: "pw-123456" });
    await call("POST", "/admin/users", {
      email: wanted[1],
      password: "pw-123456",
      user_metadata: { full_name: "Mr Zebra 100%" },
    });
    const both = await list("filter=ZEBRA&per_page=1");
    expect(both.total).toBe(2);
    expect(both.emails).toEqual([wanted[1]]);
    expect(both.link).toBe(
      '</admin/users?page=2&per_page=1&filter=ZEBRA>; rel="next", </admin/users?page=2&per_page=1&filter=ZEBRA>; rel="last"',
    );
    expect((await list("filter=ZEBRA&page=2&per_page=1")).emails).toEqual([String(wanted[0]).toLowerCase()]);
    expect(await list(`filter=${encodeURIComponent("100%")}`)).toMatchObject({
      emails: [wanted[1]],
      total: 1,
    });
    expect(await list(`filter=${encodeURIComponent("zebra%crossing")}`)).toMatchObject({
      emails: [],
      total: 0,
    });
    // An empty filter is no filter.
    expect((await list("filter=")).total).toBe(await countedUsers());
  });

  it("counts a filter's matches up to 1,000, and past that as far as the page served", async () => {
    await ns.sql`
      insert into ${users()} (id, aud, role, email, created_at)
      select gen_random_uuid(), 'authenticated', 'authenticated', 'many-' || g || '@example.com',
        now() - g * interval '1 second'
      from generate_series(1, 1200) g
    `;
    const first = await list("filter=many-&per_page=50");
    expect(first.emails.slice(0, 2)).toEqual(["many-1@example.com", "many-2@example.com"]);
    expect(first.total).toBe(1000);
    const page21 = await list("filter=many-&page=21&per_page=50");
    expect(page21.emails[0]).toBe("many-1001@example.com");
    expect(page21.total).toBe(1050);
    const last = await list("filter=many-&page=24&per_page=50");
    expect(last).toMatchObject({ total: 1200 });
    expect(last.emails.at(-1)).toBe("many-1200@example.com");
    expect((await list("filter=many-&page=25&per_page=50")).emails).toEqual([]);
    await ns.sql`delete from ${users()} where email like 'many-%'`;
  });

  it("answers hostile filters with a list or a clear 4xx, never a 500", async () => {
    const hostile = ["%00", "%ff%fe", "a%00b", "x".repeat(6000), "%25%25%25", "%5C", "'%3B--", "%E2%80%AE"];
    for (const filter of hostile) {
      const res = await call("GET", `/admin/users?filter=${filter}`);
      expect(res.status, `filter ${filter.slice(0, 20)}: ${JSON.stringify(res.body)}`).toBeLessThan(500);
      if (res.status !== 200) expect(res.body).toMatchObject({ error_code: expect.any(String) });
    }
    const nul = await call("GET", "/admin/users?filter=%00");
    expect(nul.status).toBe(400);
    expect(nul.body).toMatchObject({ error_code: "validation_failed" });
  });
});
