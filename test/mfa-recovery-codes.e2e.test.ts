import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type FreshNamespace, migratedNamespace } from "@authsvc/adapters/testing";
import { productionServerEnv, roleKey } from "@authsvc/http/testing";
import { GoTrueAdminApi, GoTrueClient } from "@supabase/auth-js";
import { decodeJwt } from "jose";
import { Secret, TOTP } from "otpauth";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ServerProcess, startServer } from "./support/server-process.js";

/**
 * MFA recovery codes through auth-js's `mfa.recoveryCodes` (behind `experimental.recoveryCodes`) on
 * the built server: generated next to a TOTP factor, used once each from a new aal1 session, guessed
 * at most a few times, regenerated and removed; the admin sees how many remain.
 */
let ns: FreshNamespace;
let server: ServerProcess;
let admin: GoTrueAdminApi;
let serviceKey: string;
const cwd = mkdtempSync(join(tmpdir(), "authsvc-recovery-codes-"));

beforeAll(async () => {
  ns = await migratedNamespace();
  serviceKey = await roleKey("service_role");
  const env = productionServerEnv(ns, {
    AUTHSVC_MFA_RECOVERY_CODES_ENROLL_ENABLED: "true",
    AUTHSVC_MFA_RECOVERY_CODES_VERIFY_ENABLED: "true",
  });
  server = await startServer(env, { cwd });
  admin = new GoTrueAdminApi({ url: server.url, headers: { Authorization: `Bearer ${serviceKey}` } });
}, 60_000);

afterAll(async () => {
  await server?.stop();
  await ns?.drop();
  rmSync(cwd, { recursive: true, force: true });
});

const PASSWORD = "secret-password-1";
let counter = 0;

const client = () =>
  new GoTrueClient({
    url: server.url,
    autoRefreshToken: false,
    persistSession: false,
    experimental: { recoveryCodes: true },
  });

async function signIn(email: string) {
  const c = client();
  const { error } = await c.signInWithPassword({ email, password: PASSWORD });
  if (error) throw error;
  return c;
}

const totpCode = (secret: string) =>
  new TOTP({ secret: Secret.fromBase32(secret), algorithm: "SHA1", digits: 6, period: 30 }).generate();

/** A confirmed user with a verified TOTP factor, signed in at aal2. */
async function withTotp() {
  const email = `codes-${Date.now()}-${++counter}@example.com`;
  const created = await admin.createUser({ email, password: PASSWORD, email_confirm: true });
  if (created.error) throw created.error;
  const c = await signIn(email);
  const enrolled = await c.mfa.enroll({ factorType: "totp", friendlyName: "app" });
  if (enrolled.error) throw enrolled.error;
  const verified = await c.mfa.challengeAndVerify({
    factorId: enrolled.data.id,
    code: totpCode(enrolled.data.totp.secret),
  });
  if (verified.error) throw verified.error;
  return { client: c, email, userId: created.data.user.id };
}

const amrOf = async (c: GoTrueClient) => {
  const { data } = await c.getSession();
  const claims = decodeJwt(data.session?.access_token ?? "");
  return { aal: claims.aal, methods: (claims.amr as { method: string }[]).map((m) => m.method) };
};

describe("recovery codes through auth-js", () => {
  it("generate once from aal2; a code typed loosely raises a new aal1 session to aal2, once", async () => {
    const { client: c, email, userId } = await withTotp();
    const generated = await c.mfa.recoveryCodes.generate({ friendlyName: "Backup codes" });
    expect(generated.error).toBeNull();
    expect(generated.data).toMatchObject({ type: "recovery_code", friendly_name: "Backup codes", total: 10 });
    const codes = generated.data?.codes ?? [];
    expect(codes).toHaveLength(10);
    for (const code of codes) expect(code).toMatch(/^[a-z2-7]{16}$/);
    expect(new Set(codes).size).toBe(10);
    const twice = await c.mfa.recoveryCodes.generate();
    expect(twice.error).toMatchObject({ status: 422, code: "mfa_verified_factor_exists" });

    // Only hashes are stored: no code appears in the table.
    const rows = await ns.sql`select code_hash from ${ns.sql(ns.namespace)}.mfa_recovery_codes`;
    const stored = rows.map((r) => String(r.code_hash));
    expect(stored).toHaveLength(10);
    for (const code of codes) expect(stored.some((h) => h.includes(code))).toBe(false);

    const later = await signIn(email);
    expect(await amrOf(later)).toMatchObject({ aal: "aal1" });
    const code = codes[0] ?? "";
    const typed = `${code.slice(0, 4).toUpperCase()}-${code.slice(4, 8)} ${code.slice(8).toUpperCase()}`;
    const used = await later.mfa.recoveryCodes.verify({ code: typed });
    expect(used.error).toBeNull();
    expect(await amrOf(later)).toEqual({ aal: "aal2", methods: ["mfa/recovery_code", "password"] });
    const listed = await later.mfa.listFactors();
    expect(listed.data?.all.map((f) => f.factor_type).sort()).toEqual(["recovery_code", "totp"]);

    const again = await signIn(email);
    const reused = await again.mfa.recoveryCodes.verify({ code });
    expect(reused.error).toMatchObject({ status: 422, code: "mfa_verification_failed" });
    expect(await amrOf(again)).toMatchObject({ aal: "aal1" });

    expect((await again.mfa.recoveryCodes.getStatus()).data).toEqual({
      id: generated.data?.id,
      type: "recovery_code",
      total: 10,
      remaining: 9,
    });
    const seen = await fetch(`${server.url}/admin/users/${userId}/factors/recovery-codes`, {
      headers: { authorization: `Bearer ${serviceKey}`, apikey: serviceKey },
    });
    expect(seen.status).toBe(200);
    expect(await seen.json()).toEqual({
      id: generated.data?.id,
      type: "recovery_code",
      total: 10,
      remaining: 9,
    });
  });

  it("take five wrong codes, then answer 429 mfa_recovery_codes_locked even to a right one", async () => {
    const { client: c, email } = await withTotp();
    const codes = (await c.mfa.recoveryCodes.generate()).data?.codes ?? [];
    const guesser = await signIn(email);
    for (let i = 0; i < 5; i++) {
      const wrong = await guesser.mfa.recoveryCodes.verify({ code: "aaaaaaaaaaaaaaaa" });
      expect(wrong.error).toMatchObject({ status: 422, code: "mfa_verification_failed" });
    }
    const held = await guesser.mfa.recoveryCodes.verify({ code: codes[0] ?? "" });
    expect(held.error).toMatchObject({ status: 429, code: "mfa_recovery_codes_locked" });
    expect(await amrOf(guesser)).toMatchObject({ aal: "aal1" });

    // Regenerating (from the user's aal2 session) replaces the set and clears the wait.
    const renewed = await c.mfa.recoveryCodes.regenerate();
    expect(renewed.error).toBeNull();
    expect(renewed.data?.codes).toHaveLength(10);
    const old = await guesser.mfa.recoveryCodes.verify({ code: codes[0] ?? "" });
    expect(old.error).toMatchObject({ status: 422, code: "mfa_verification_failed" });
    const fresh = await guesser.mfa.recoveryCodes.verify({ code: renewed.data?.codes[0] ?? "" });
    expect(fresh.error).toBeNull();
  });

  it("refuse aal1 callers and a user without another factor; unenroll from aal2 only", async () => {
    const email = `alone-${Date.now()}@example.com`;
    const created = await admin.createUser({ email, password: PASSWORD, email_confirm: true });
    if (created.error) throw created.error;
    const alone = await signIn(email);
    const sole = await alone.mfa.recoveryCodes.generate();
    expect(sole.error).toMatchObject({ status: 422, code: "mfa_recovery_codes_sole_factor" });
    expect((await alone.mfa.recoveryCodes.getStatus()).error).toMatchObject({
      status: 404,
      code: "mfa_factor_not_found",
    });

    const { client: c, email: withFactor } = await withTotp();
    const generated = await c.mfa.recoveryCodes.generate();
    const aal1 = await signIn(withFactor);
    expect((await aal1.mfa.recoveryCodes.regenerate()).error).toMatchObject({
      status: 403,
      code: "insufficient_aal",
    });
    expect((await aal1.mfa.recoveryCodes.unenroll()).error).toMatchObject({
      status: 403,
      code: "insufficient_aal",
    });
    // The generic factor endpoint does not remove recovery codes.
    const generic = await c.mfa.unenroll({ factorId: generated.data?.id ?? "" });
    expect(generic.error).toMatchObject({ status: 422, code: "validation_failed" });
    const removed = await c.mfa.recoveryCodes.unenroll();
    expect(removed).toEqual({ data: { id: generated.data?.id }, error: null });
    expect((await c.mfa.recoveryCodes.getStatus()).error).toMatchObject({ code: "mfa_factor_not_found" });
  });
});
