import { randomBytes, randomUUID } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type FreshNamespace, freshNamespace, testDatabase } from "@authsvc/adapters/testing";
import { productionServerEnv, roleKey } from "@authsvc/http/testing";
import { hashSync } from "bcryptjs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createGotrueSchema } from "./support/gotrue-source.js";
import { jsonCaller } from "./support/json-call.js";
import { runServer, type ServerProcess, startServer } from "./support/server-process.js";

/**
 * `authsvc import-gotrue` and the rows of a GoTrue database that authsvc would pay for later: a
 * password hash costing more than authsvc computes (refused, named in the summary, its identity with
 * it), and timestamps a JavaScript Date cannot hold (`infinity`, year 294276: clamped on the way).
 */
let target: FreshNamespace;
let sourceSchema: string;
let server: ServerProcess | undefined;
const cwd = mkdtempSync(join(tmpdir(), "authsvc-import-limits-"));
const PASSWORD = "old-gotrue-password";
const SALT_AND_DIGEST = "$c29tZXNhbHRzb21lc2FsdA$3q2+7w3q2+7w3q2+7w3q2+7w3q2+7w3q2+7w3q2+7w";

const heavy = { id: randomUUID(), email: "heavy@example.com" };
const costly = { id: randomUUID(), email: "costly@example.com" };
const forever = { id: randomUUID(), email: "forever@example.com" };
const plain = { id: randomUUID(), email: "plain@example.com" };

beforeAll(async () => {
  target = await freshNamespace();
  sourceSchema = `g_${randomBytes(6).toString("hex")}`;
  await createGotrueSchema(target.sql, sourceSchema);
  const s = (name: string) => target.sql(`${sourceSchema}.${name}`);
  const bcrypt = hashSync(PASSWORD, 4).replace(/^\$2b\$/, "$2a$");
  const user = (id: string, email: string, encrypted_password: string) => ({
    instance_id: "00000000-0000-0000-0000-000000000000",
    id,
    aud: "authenticated",
    role: "authenticated",
    email,
    encrypted_password,
    email_confirmed_at: new Date("2025-01-02T03:04:05Z"),
    raw_app_meta_data: target.sql.json({ provider: "email", providers: ["email"] }),
    raw_user_meta_data: target.sql.json({}),
    created_at: new Date("2025-01-02T03:04:05Z"),
    updated_at: new Date("2025-01-02T03:04:05Z"),
    is_sso_user: false,
    is_anonymous: false,
  });
  await target.sql`insert into ${s("users")} ${target.sql([
    // The hash that held 4.2 GB and every password sign-in for 76 s.
    user(heavy.id, heavy.email, `$argon2id$v=19$m=1048576,t=20,p=16${SALT_AND_DIGEST}`),
    user(costly.id, costly.email, `$2a$16$${bcrypt.slice(7)}`),
    user(forever.id, forever.email, bcrypt),
    user(plain.id, plain.email, bcrypt),
  ])}`;
  await target.sql`
    update ${s("users")} set banned_until = 'infinity', last_sign_in_at = '294276-12-31 23:59:59+00',
      invited_at = '-infinity', updated_at = 'infinity'
    where id = ${forever.id}
  `;
  for (const { id, email } of [heavy, forever]) {
    await target.sql`
      insert into ${s("identities")} (id, provider_id, user_id, identity_data, provider, created_at, updated_at)
      values (gen_random_uuid(), ${id}, ${id}, ${target.sql.json({ sub: id, email })}, 'email', now(), now())
    `;
  }
}, 120_000);

afterAll(async () => {
  await server?.stop();
  await target.sql`drop schema if exists ${target.sql(sourceSchema)} cascade`;
  await target.drop();
  rmSync(cwd, { recursive: true, force: true });
});

const importOnce = () =>
  runServer(productionServerEnv(target), {
    cwd,
    args: ["import-gotrue", "--from", testDatabase().url, "--schema", sourceSchema],
  });

const t = (name: string) => target.sql(`${target.namespace}.${name}`);

const call = jsonCaller(() => server?.url ?? "");

describe("authsvc import-gotrue: what authsvc could not afford later", () => {
  it("refuses users whose password hash costs more than authsvc computes, naming the limit, not the hash", async () => {
    const run = await importOnce();
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    expect(run.stdout).toContain(
      `users ${heavy.id}: its password hash costs more than authsvc computes (argon2 memory above 262144 KiB)`,
    );
    expect(run.stdout).toContain(
      `users ${costly.id}: its password hash costs more than authsvc computes (bcrypt cost above 14)`,
    );
    expect(run.stdout).toMatch(/identities [0-9a-f-]{36}: its user was not copied/);
    expect(run.stdout).not.toContain("m=1048576");
    const ids = await target.sql<{ id: string }[]>`select id from ${t("users")} order by email`;
    expect(ids.map((r) => r.id).sort()).toEqual([forever.id, plain.id].sort());
  });

  it("clamps timestamps a Date cannot hold: the ban until infinity stays a ban, the pages answer", async () => {
    const [row] = await target.sql<{ banned_until: string; last_sign_in_at: string; invited_at: string }[]>`
      select banned_until::text, last_sign_in_at::text, invited_at::text from ${t("users")} where id = ${forever.id}
    `;
    expect(row).toEqual({
      banned_until: "9999-12-31 23:59:59.999+00",
      last_sign_in_at: "9999-12-31 23:59:59.999+00",
      invited_at: "0001-01-01 00:00:00+00",
    });
    // A second run finds the clamped row up to date.
    const again = await importOnce();
    expect(again.code).toBe(0);
    expect(again.stdout).toMatch(/users\s+4\s+0\s+0\s+2\s+2/);

    server = await startServer(productionServerEnv(target), { cwd });
    const admin = { authorization: `Bearer ${await roleKey("service_role")}` };
    const list = await call("GET", "/admin/users", undefined, admin);
    expect(list.status).toBe(200);
    const shown = await call("GET", `/admin/users/${forever.id}`, undefined, admin);
    expect(shown.body.banned_until).toBe("9999-12-31T23:59:59.999Z");
    const refused = await call("POST", "/token?grant_type=password", {
      email: forever.email,
      password: PASSWORD,
    });
    expect(refused.status).toBe(400);
    expect(refused.body.error_code).toBe("user_banned");
    const signedIn = await call("POST", "/token?grant_type=password", {
      email: plain.email,
      password: PASSWORD,
    });
    expect(signedIn.status).toBe(200);
  });
});
