import { createHash, randomBytes, randomUUID } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type FreshNamespace, freshNamespace, testDatabase } from "@authsvc/adapters/testing";
import { productionServerEnv } from "@authsvc/http/testing";
import { GoTrueClient } from "@supabase/auth-js";
import { decodeJwt } from "jose";
import { Secret, TOTP } from "otpauth";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  AUTHSVC_KEY,
  alice,
  aliceTokens,
  BOB_COUNTER,
  bob,
  fillSource,
  GOTRUE_KEY,
  PASSWORD,
  TOTP_SECRET,
} from "./support/gotrue-people.js";
import {
  createGotrueSchema,
  referenceRefreshToken,
  referenceRefreshTokenV2,
} from "./support/gotrue-source.js";
import { runServer, type ServerProcess, startServer } from "./support/server-process.js";
import { snapshotsOutOfStep } from "./support/user-snapshots.js";

/**
 * Moving over from GoTrue: a database laid out by the reference's own migrations, filled as the
 * reference writes its rows, imported by the built `authsvc import-gotrue`, then used through the
 * built server: the old password signs in, a refresh token issued before the import refreshes, the
 * TOTP factor verifies; and a run after all that changes nothing.
 */

let target: FreshNamespace;
let sourceSchema: string;
let server: ServerProcess | undefined;
const cwd = mkdtempSync(join(tmpdir(), "authsvc-import-"));

const env = (extra: Record<string, string> = {}) =>
  productionServerEnv(target, {
    AUTHSVC_SECURITY_DB_ENCRYPTION_ENCRYPTION_KEY_ID: AUTHSVC_KEY.id,
    AUTHSVC_SECURITY_DB_ENCRYPTION_ENCRYPTION_KEY: AUTHSVC_KEY.key,
    ...extra,
  });
const gotrueKeys = {
  GOTRUE_SECURITY_DB_ENCRYPTION_ENCRYPTION_KEY_ID: GOTRUE_KEY.id,
  GOTRUE_SECURITY_DB_ENCRYPTION_ENCRYPTION_KEY: GOTRUE_KEY.key,
  GOTRUE_SECURITY_DB_ENCRYPTION_DECRYPTION_KEYS: `${GOTRUE_KEY.id}:${GOTRUE_KEY.key}`,
};
const importOnce = (extra: Record<string, string> = gotrueKeys, args: string[] = []) =>
  runServer(env(extra), {
    cwd,
    args: ["import-gotrue", "--from", testDatabase().url, "--schema", sourceSchema, "--with-audit", ...args],
  });

const t = (name: string) => target.sql(`${target.namespace}.${name}`);

/** A digest of every table the import writes, to compare two moments. */
async function targetDigest(): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const table of [
    "users",
    "identities",
    "mfa_factors",
    "sessions",
    "refresh_tokens",
    "user_snapshots",
    "audit_log_entries",
  ]) {
    const [row] = await target.sql<{ d: string }[]>`
      select coalesce(md5(string_agg(x::text, '|' order by x::text)), '') as d from ${t(table)} x
    `;
    out[table] = row?.d ?? "";
  }
  return out;
}

async function refresh(token: string) {
  const response = await fetch(`${server?.url}/token?grant_type=refresh_token`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ refresh_token: token }),
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

beforeAll(async () => {
  target = await freshNamespace();
  sourceSchema = `g_${randomBytes(6).toString("hex")}`;
  await createGotrueSchema(target.sql, sourceSchema);
  await fillSource(target.sql, sourceSchema);
}, 120_000);

afterAll(async () => {
  await server?.stop();
  await target.sql`drop schema if exists ${target.sql(sourceSchema)} cascade`;
  await target.drop();
  rmSync(cwd, { recursive: true, force: true });
});

describe("authsvc import-gotrue", () => {
  it("stops with a plain sentence at a TOTP secret whose key it was not given, after the rows before it", async () => {
    const run = await importOnce({});
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(
      `the TOTP secret of factor ${alice.factor} does not open: it is encrypted with a key that was not given`,
    );
    expect(run.stderr).toContain("GOTRUE_SECURITY_DB_ENCRYPTION_DECRYPTION_KEYS");
    const [counts] = await target.sql<{ users: string; factors: string }[]>`
      select (select count(*) from ${t("users")}) as users, (select count(*) from ${t("mfa_factors")}) as factors
    `;
    expect(counts).toEqual({ users: "4", factors: "0" });
  });

  it("resumes: the second run copies the rest and finds the users already there", async () => {
    const run = await importOnce();
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    const line = (table: string) =>
      run.stdout
        .split("\n")
        .find((l) => l.trim().startsWith(`${table} `))
        ?.trim()
        .split(/\s+/)
        .slice(0, 6);
    // table, read, inserted, updated, unchanged, rejected
    expect(line("users")).toEqual(["users", "5", "0", "0", "4", "1"]);
    expect(line("identities")).toEqual(["identities", "5", "0", "0", "4", "1"]);
    expect(line("mfa_factors")).toEqual(["mfa_factors", "2", "2", "0", "0", "0"]);
    expect(line("sessions")).toEqual(["sessions", "3", "3", "0", "0", "0"]);
    expect(line("refresh_tokens")).toEqual(["refresh_tokens", "2", "2", "0", "0", "0"]);
    expect(line("session_tokens")).toEqual(["session_tokens", "2", "2", "0", "0", "0"]);
    expect(line("audit_log_entries")).toEqual(["audit_log_entries", "1", "1", "0", "0", "0"]);
    expect(run.stdout).toContain("left out: 1 WebAuthn factors (authsvc offers none)");
    expect(run.stdout).toMatch(/users [0-9a-f-]{36}: violates users_email_partial_key/);
    // The refused twin's identity goes with it, named.
    expect(run.stdout).toMatch(/identities [0-9a-f-]{36}: its user was not copied/);
    // Each batch rewrote its users' snapshots set-wise, the rows written one by one in savepoints
    // (the batch with the twin) included: every user's is there, as a single writer builds it.
    expect(await snapshotsOutOfStep(target.sql, target.namespace)).toEqual([]);
  });

  it("stores what it copied by authsvc's rules: no token in clear, secrets sealed with authsvc's key, hashes as they were", async () => {
    const tokens = await target.sql<
      { token_hash: string; revoked: boolean; parent_id: string | null; id: string }[]
    >`
      select id, token_hash, revoked, parent_id from ${t("refresh_tokens")} where session_id = ${alice.session} order by created_at
    `;
    const sha256 = (s: string) => createHash("sha256").update(s).digest("hex");
    expect(tokens.map((r) => [r.token_hash, r.revoked])).toEqual([
      [sha256(aliceTokens.first), true],
      [sha256(aliceTokens.current), false],
    ]);
    expect(tokens[1]?.parent_id).toBe(tokens[0]?.id);
    const [factor] = await target.sql<
      { secret: string }[]
    >`select secret from ${t("mfa_factors")} where id = ${alice.factor}`;
    expect(JSON.parse(factor?.secret ?? "{}")).toMatchObject({ key_id: AUTHSVC_KEY.id, alg: "aes-gcm-hkdf" });
    expect(factor?.secret).not.toContain(TOTP_SECRET);
    const [phone] = await target.sql<{ factor_type: string; status: string; phone: string; secret: null }[]>`
      select factor_type::text, status::text, phone, secret from ${t("mfa_factors")} where id = ${bob.phoneFactor}
    `;
    expect(phone).toEqual({ factor_type: "phone", status: "verified", phone: "15550001234", secret: null });
    const [user] = await target.sql<{ encrypted_password: string; updated_at: string }[]>`
      select encrypted_password, updated_at::text from ${t("users")} where id = ${alice.id}
    `;
    expect(user?.encrypted_password).toMatch(/^\$2a\$10\$/);
    expect(user?.updated_at).toBe("2025-01-02 03:04:05.123456+00");
    const [session] = await target.sql<{ aal: string; amr: { method: string }[] }[]>`
      select aal::text, amr from ${t("sessions")} where id = ${alice.session}
    `;
    expect(session?.aal).toBe("aal2");
    expect(session?.amr.map((e) => e.method)).toEqual(["password", "totp"]);
  });

  it("keeps signed-in clients signed in: refresh tokens issued by the reference refresh here", async () => {
    server = await startServer(env(), { cwd });
    const refreshed = await refresh(aliceTokens.current);
    expect(refreshed.status).toBe(200);
    const claims = decodeJwt(String(refreshed.body.access_token));
    expect(claims).toMatchObject({ sub: alice.id, session_id: alice.session, aal: "aal2" });
    expect((claims.amr as { method: string }[]).map((e) => e.method).sort()).toEqual(["password", "totp"]);

    const bobToken = referenceRefreshTokenV2(bob.session, BOB_COUNTER, bob.hmacKey);
    const bobRefreshed = await refresh(bobToken);
    expect(bobRefreshed.status).toBe(200);
    expect(decodeJwt(String(bobRefreshed.body.access_token))).toMatchObject({
      sub: bob.id,
      session_id: bob.session,
    });
    // An earlier token of that session was never the client's last: refused.
    expect((await refresh(referenceRefreshTokenV2(bob.session, BOB_COUNTER - 1, bob.hmacKey))).status).toBe(
      400,
    );
  });

  it("signs a person in with the password the reference hashed, then stores argon2id", async () => {
    const client = new GoTrueClient({
      url: server?.url as string,
      autoRefreshToken: false,
      persistSession: false,
    });
    const wrong = await client.signInWithPassword({ email: alice.email, password: `${PASSWORD}x` });
    expect(wrong.error?.status).toBe(400);
    const { data, error } = await client.signInWithPassword({ email: alice.email, password: PASSWORD });
    expect(error).toBeNull();
    expect(data.user?.id).toBe(alice.id);
    const [user] = await target.sql<{ encrypted_password: string }[]>`
      select encrypted_password from ${t("users")} where id = ${alice.id}
    `;
    expect(user?.encrypted_password).toMatch(/^\$argon2id\$/);
    // Again, now against the new hash.
    const again = await client.signInWithPassword({ email: alice.email, password: PASSWORD });
    expect(again.error).toBeNull();

    // The factor enrolled at the reference verifies with the authenticator app's code.
    const factors = await client.mfa.listFactors();
    expect(factors.data?.totp.map((f) => f.id)).toEqual([alice.factor]);
    const code = new TOTP({
      secret: Secret.fromBase32(TOTP_SECRET),
      algorithm: "SHA1",
      digits: 6,
      period: 30,
    }).generate();
    const verified = await client.mfa.challengeAndVerify({ factorId: alice.factor, code });
    expect(verified.error).toBeNull();
    expect(decodeJwt(String(verified.data?.access_token)).aal).toBe("aal2");
  });

  it("catches up with what changed at the reference since, and revokes a token revoked there", async () => {
    const s = (name: string) => target.sql(`${sourceSchema}.${name}`);
    await target.sql`
      update ${s("users")} set raw_user_meta_data = '{"name":"bob","plan":"pro"}', updated_at = now()
      where id = ${bob.id}
    `;
    const newToken = referenceRefreshToken();
    await target.sql`
      insert into ${s("sessions")} (id, user_id, created_at, updated_at, aal)
      values (${randomUUID()}, ${bob.id}, now(), now(), 'aal1')
    `;
    const [session] = await target.sql<{ id: string }[]>`
      select id from ${s("sessions")} where user_id = ${bob.id} and refresh_token_hmac_key is null
    `;
    await target.sql`
      insert into ${s("refresh_tokens")} (token, user_id, revoked, created_at, updated_at, session_id)
      values (${newToken}, ${bob.id}, false, now(), now(), ${session?.id as string})
    `;
    // Both of Bob's devices refresh at the reference once more.
    await target.sql`
      update ${s("sessions")} set refresh_token_counter = refresh_token_counter + 1, refreshed_at = now() at time zone 'UTC'
      where id in ${target.sql([bob.session, bob.idleSession])}
    `;
    const run = await importOnce();
    expect(run.code).toBe(0);
    const cells = (table: string) =>
      run.stdout
        .split("\n")
        .find((l) => l.trim().startsWith(`${table} `))
        ?.trim()
        .split(/\s+/)
        .slice(2, 4);
    expect(cells("users")).toEqual(["0", "1"]); // inserted, updated
    expect(cells("sessions")).toEqual(["1", "2"]);
    expect(cells("refresh_tokens")).toEqual(["1", "0"]);
    // The idle device's new token replaces the one copied before; the other device's session was
    // rotated here meanwhile, and stays as authsvc left it.
    expect(cells("session_tokens")).toEqual(["1", "0"]);
    expect((await refresh(referenceRefreshTokenV2(bob.idleSession, 8, bob.idleKey))).status).toBe(200);
    expect((await refresh(referenceRefreshTokenV2(bob.session, BOB_COUNTER + 1, bob.hmacKey))).status).toBe(
      400,
    );
    const [snapshot] = await target.sql<
      { body: { user_metadata?: unknown; raw_user_meta_data?: unknown } }[]
    >`
      select body from ${t("user_snapshots")} where user_id = ${bob.id}
    `;
    expect(JSON.stringify(snapshot?.body)).toContain('"plan":"pro"');
    expect(await snapshotsOutOfStep(target.sql, target.namespace)).toEqual([]);
    expect((await refresh(newToken)).status).toBe(200);

    // Revoked at the reference after the copy: revoked here too by the next run.
    const another = referenceRefreshToken();
    await target.sql`
      insert into ${s("refresh_tokens")} (token, user_id, revoked, created_at, updated_at, session_id)
      values (${another}, ${bob.id}, false, now(), now(), ${session?.id as string})
    `;
    expect((await importOnce()).code).toBe(0);
    await target.sql`update ${s("refresh_tokens")} set revoked = true, updated_at = now() where token = ${another}`;
    expect((await importOnce()).code).toBe(0);
    const [copied] = await target.sql<{ revoked: boolean }[]>`
      select revoked from ${t("refresh_tokens")} where token_hash = ${createHash("sha256").update(another).digest("hex")}
    `;
    expect(copied?.revoked).toBe(true);
  });

  it("changes nothing when run again, after the server has used what it copied", async () => {
    const before = await targetDigest();
    const run = await importOnce();
    expect(run.code).toBe(0);
    const tables = run.stdout
      .split("\n")
      .map((l) => l.trim().split(/\s+/))
      .filter((cells) => cells.length === 7 && cells.slice(1).every((cell) => /^[\d,.]+$/.test(cell)));
    expect(tables.map((cells) => cells[0])).toEqual([
      "users",
      "identities",
      "mfa_factors",
      "sessions",
      "refresh_tokens",
      "session_tokens",
      "audit_log_entries",
    ]);
    // Nothing inserted, nothing updated.
    expect(tables.filter((cells) => cells[2] !== "0" || cells[3] !== "0")).toEqual([]);
    expect(await targetDigest()).toEqual(before);
  });
});
