import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  type FreshNamespace,
  migratedNamespace,
  type SmsGatewayFake,
  startTwilioFake,
} from "@authsvc/adapters/testing";
import { productionServerEnv, roleKey } from "@authsvc/http/testing";
import { GoTrueAdminApi, GoTrueClient } from "@supabase/auth-js";
import { decodeJwt } from "jose";
import { Secret, TOTP } from "otpauth";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ServerProcess, startServer } from "./support/server-process.js";

/**
 * Multi-factor authentication through auth-js on the built server: TOTP codes computed here from the
 * secret the enrolment answered, phone codes read from a loopback Twilio fake.
 */
let ns: FreshNamespace;
let server: ServerProcess;
let sms: SmsGatewayFake;
let admin: GoTrueAdminApi;
let serviceKey: string;
const cwd = mkdtempSync(join(tmpdir(), "authsvc-mfa-"));

beforeAll(async () => {
  ns = await migratedNamespace();
  serviceKey = await roleKey("service_role");
  sms = await startTwilioFake({
    accountSid: "AC0123456789abcdef0123456789abcdef",
    authToken: "tw-token",
    sender: "+15550001111",
  });
  const env = productionServerEnv(ns, {
    AUTHSVC_MFA_PHONE_ENROLL_ENABLED: "true",
    AUTHSVC_MFA_PHONE_VERIFY_ENABLED: "true",
    AUTHSVC_EXTERNAL_ANONYMOUS_USERS_ENABLED: "true",
    AUTHSVC_SECURITY_DB_ENCRYPTION_ENCRYPTION_KEY_ID: "k1",
    AUTHSVC_SECURITY_DB_ENCRYPTION_ENCRYPTION_KEY: Buffer.alloc(32, 7).toString("base64url"),
    AUTHSVC_SMS_PROVIDER: "twilio",
    AUTHSVC_SMS_TWILIO_ACCOUNT_SID: "AC0123456789abcdef0123456789abcdef",
    AUTHSVC_SMS_TWILIO_AUTH_TOKEN: "tw-token",
    AUTHSVC_SMS_TWILIO_MESSAGE_SERVICE_SID: "+15550001111",
    AUTHSVC_SMS_TWILIO_BASE_URL: sms.url,
  });
  server = await startServer(env, { cwd });
  admin = new GoTrueAdminApi({ url: server.url, headers: { Authorization: `Bearer ${serviceKey}` } });
}, 60_000);

afterAll(async () => {
  await Promise.all([server?.stop(), sms?.close()]);
  await ns?.drop();
  rmSync(cwd, { recursive: true, force: true });
});

let counter = 0;
const PASSWORD = "secret-password-1";

/** A confirmed user signed in with a password on a client of their own (aal1). */
async function signedIn(email = `mfa-${Date.now()}-${++counter}@example.com`) {
  const created = await admin.createUser({ email, password: PASSWORD, email_confirm: true });
  if (created.error) throw created.error;
  const client = new GoTrueClient({ url: server.url, autoRefreshToken: false, persistSession: false });
  const { error } = await client.signInWithPassword({ email, password: PASSWORD });
  if (error) throw error;
  return { client, email, userId: created.data.user.id };
}

const totpCode = (secret: string, at = Date.now()) =>
  new TOTP({ secret: Secret.fromBase32(secret), algorithm: "SHA1", digits: 6, period: 30 }).generate({
    timestamp: at,
  });

async function accessClaims(client: GoTrueClient) {
  const { data } = await client.getSession();
  if (!data.session) throw new Error("no session");
  return decodeJwt(data.session.access_token);
}

async function enrolTotp(client: GoTrueClient, friendlyName = "authenticator") {
  const { data, error } = await client.mfa.enroll({ factorType: "totp", friendlyName });
  if (error) throw error;
  return data;
}

describe("TOTP factors through auth-js", () => {
  it("enrolls with a secret, URI and SVG QR code; verifying raises the session to aal2 with amr totp", async () => {
    const { client, email } = await signedIn();
    expect((await client.mfa.getAuthenticatorAssuranceLevel()).data).toMatchObject({
      currentLevel: "aal1",
      nextLevel: "aal1",
    });
    const enrolled = await enrolTotp(client);
    expect(enrolled).toMatchObject({ type: "totp", friendly_name: "authenticator" });
    expect(enrolled.totp.qr_code.startsWith("data:image/svg+xml;utf-8,<svg")).toBe(true);
    expect(enrolled.totp.uri).toMatch(/^otpauth:\/\/totp\//);
    expect(enrolled.totp.uri).toContain(`secret=${enrolled.totp.secret}`);
    expect(decodeURIComponent(enrolled.totp.uri)).toContain(email);

    const before = await client.mfa.listFactors();
    expect(before.data?.all).toEqual([expect.objectContaining({ id: enrolled.id, status: "unverified" })]);
    expect(before.data?.totp).toEqual([]);

    const challenge = await client.mfa.challenge({ factorId: enrolled.id });
    expect(challenge.error).toBeNull();
    expect(challenge.data).toMatchObject({ type: "totp" });
    expect(challenge.data?.expires_at).toBeGreaterThan(Date.now() / 1000 + 250);
    const wrong = await client.mfa.verify({
      factorId: enrolled.id,
      challengeId: challenge.data?.id ?? "",
      code: totpCode(enrolled.totp.secret, Date.now() - 10 * 60_000),
    });
    expect(wrong.error).toMatchObject({
      status: 422,
      code: "mfa_verification_failed",
      message: "Invalid TOTP code entered",
    });

    const verified = await client.mfa.verify({
      factorId: enrolled.id,
      challengeId: challenge.data?.id ?? "",
      code: totpCode(enrolled.totp.secret),
    });
    expect(verified.error).toBeNull();
    const claims = await accessClaims(client);
    expect(claims.aal).toBe("aal2");
    expect((claims.amr as { method: string }[]).map((m) => m.method)).toEqual(["totp", "password"]);
    const aal = await client.mfa.getAuthenticatorAssuranceLevel();
    expect(aal.data).toMatchObject({ currentLevel: "aal2", nextLevel: "aal2" });
    const after = await client.mfa.listFactors();
    expect(after.data?.totp).toEqual([expect.objectContaining({ id: enrolled.id, status: "verified" })]);

    // A refresh keeps the assurance level; the challenge cannot be answered twice.
    const refreshed = await client.refreshSession();
    expect(refreshed.error).toBeNull();
    expect(decodeJwt(refreshed.data.session?.access_token ?? "").aal).toBe("aal2");
    const replay = await client.mfa.verify({
      factorId: enrolled.id,
      challengeId: challenge.data?.id ?? "",
      code: totpCode(enrolled.totp.secret),
    });
    expect(replay.error).toMatchObject({ status: 422, code: "mfa_ip_address_mismatch" });
  });

  it("a new sign-in is aal1 with next level aal2; a second factor and unenrolling need aal2", async () => {
    const { client, email } = await signedIn();
    const first = await enrolTotp(client, "first");
    expect(
      (await client.mfa.challengeAndVerify({ factorId: first.id, code: totpCode(first.totp.secret) })).error,
    ).toBeNull();

    const again = new GoTrueClient({ url: server.url, autoRefreshToken: false, persistSession: false });
    expect((await again.signInWithPassword({ email, password: PASSWORD })).error).toBeNull();
    const aal = await again.mfa.getAuthenticatorAssuranceLevel();
    expect(aal.data).toMatchObject({ currentLevel: "aal1", nextLevel: "aal2" });
    const jwt = (await again.getSession()).data.session?.access_token ?? "";
    expect((await again.mfa.getAuthenticatorAssuranceLevel(jwt)).data).toMatchObject({ nextLevel: "aal2" });

    const second = await again.mfa.enroll({ factorType: "totp", friendlyName: "second" });
    expect(second.error).toMatchObject({ status: 403, code: "insufficient_aal" });
    const unenrollAtAal1 = await again.mfa.unenroll({ factorId: first.id });
    expect(unenrollAtAal1.error).toMatchObject({ status: 422, code: "insufficient_aal" });
    // The password alone does not take the account over: password and email stay.
    const passwordAtAal1 = await again.updateUser({ password: "another-password-2" });
    expect(passwordAtAal1.error).toMatchObject({ status: 401, code: "insufficient_aal" });
    const emailAtAal1 = await again.updateUser({ email: `taken-over-${Date.now()}@example.com` });
    expect(emailAtAal1.error).toMatchObject({ status: 401, code: "insufficient_aal" });

    // The first session's code cannot prove anything again (RFC 6238 §5.2): the next step's code.
    const nextCode = totpCode(first.totp.secret, Date.now() + 30_000);
    expect((await again.mfa.challengeAndVerify({ factorId: first.id, code: nextCode })).error).toBeNull();
    const sameName = await again.mfa.enroll({ factorType: "totp", friendlyName: "first" });
    expect(sameName.error).toMatchObject({ status: 422, code: "mfa_factor_name_conflict" });
    const unenrolled = await again.mfa.unenroll({ factorId: first.id });
    expect(unenrolled.error).toBeNull();
    expect(unenrolled.data).toEqual({ id: first.id });
    expect((await again.mfa.listFactors()).data?.all).toEqual([]);
    // The session the factor raised is back at aal1, without the method.
    const { data } = await again.refreshSession();
    const claims = decodeJwt(data.session?.access_token ?? "");
    expect(claims.aal).toBe("aal1");
    expect((claims.amr as { method: string }[]).map((m) => m.method)).toEqual(["password"]);
  });

  it("keeps the TOTP secret encrypted at rest", async () => {
    const { client, userId } = await signedIn();
    const enrolled = await enrolTotp(client);
    const [row] =
      await ns.sql`select secret from ${ns.sql(ns.namespace)}.mfa_factors where user_id = ${userId}`;
    expect(row?.secret).not.toContain(enrolled.totp.secret);
    expect(JSON.parse(row?.secret)).toMatchObject({ key_id: "k1", alg: "aes-gcm-hkdf" });
  });

  it("holds the cap on factors under 30 parallel enrolments of one user: 10 enrolled, 20 refused", async () => {
    const { client, userId } = await signedIn();
    const token = (await client.getSession()).data.session?.access_token ?? "";
    // Straight over HTTP: auth-js runs one call at a time per client.
    const enrol = async (i: number) => {
      const response = await fetch(`${server.url}/factors`, {
        method: "POST",
        headers: { Authorization: `Bearer ${token}`, "content-type": "application/json" },
        body: JSON.stringify({ factor_type: "totp", friendly_name: `app ${i}` }),
      });
      const body = (await response.json()) as { error_code?: string };
      return `${response.status} ${body.error_code ?? "enrolled"}`;
    };
    const answers = await Promise.all(Array.from({ length: 30 }, (_, i) => enrol(i)));
    expect(answers.filter((a) => a === "200 enrolled")).toHaveLength(10);
    expect(answers.filter((a) => a === "422 too_many_enrolled_mfa_factors")).toHaveLength(20);
    const [row] = await ns.sql`
      select count(*)::int as factors from ${ns.sql(ns.namespace)}.mfa_factors where user_id = ${userId}
    `;
    expect(row?.factors).toBe(10);
  });

  it("refuses anonymous users", async () => {
    const client = new GoTrueClient({ url: server.url, autoRefreshToken: false, persistSession: false });
    expect((await client.signInAnonymously()).error).toBeNull();
    const { error } = await client.mfa.enroll({ factorType: "totp" });
    expect(error).toMatchObject({ status: 403, code: "no_authorization" });
  });
});

describe("phone factors through auth-js", () => {
  it("texts a code through the SMS gateway; verifying it raises the session with amr mfa/phone", async () => {
    const { client } = await signedIn();
    const phone = `1555${String(Date.now() % 10_000_000).padStart(7, "0")}`;
    const enrolled = await client.mfa.enroll({
      factorType: "phone",
      phone: `+${phone}`,
      friendlyName: "mobile",
    });
    expect(enrolled.error).toBeNull();
    expect(enrolled.data).toMatchObject({ type: "phone", phone: `+${phone}` });
    const factorId = enrolled.data?.id ?? "";
    const challenge = await client.mfa.challenge({ factorId, channel: "sms" });
    expect(challenge.error).toBeNull();
    const text = sms.messages.filter((m) => m.to.replace(/^\+/, "") === phone).at(-1);
    const code = /(\d{6})/.exec(text?.body ?? "")?.[1] ?? "";
    expect(text?.body).toBe(`Your code is ${code}`);
    const tooSoon = await client.mfa.challenge({ factorId });
    expect(tooSoon.error).toMatchObject({ status: 429, code: "over_sms_send_rate_limit" });
    const wrong = await client.mfa.verify({
      factorId,
      challengeId: challenge.data?.id ?? "",
      code: "000000",
    });
    expect(wrong.error).toMatchObject({ status: 422, code: "mfa_verification_failed" });
    const verified = await client.mfa.verify({ factorId, challengeId: challenge.data?.id ?? "", code });
    expect(verified.error).toBeNull();
    const claims = await accessClaims(client);
    expect(claims.aal).toBe("aal2");
    expect((claims.amr as { method: string }[])[0]?.method).toBe("mfa/phone");
    expect((await client.mfa.listFactors()).data?.phone).toEqual([
      expect.objectContaining({ id: factorId, status: "verified", phone }),
    ]);
  });
});

describe("admin factor endpoints through auth-js", () => {
  it("lists, renames and deletes a user's factors", async () => {
    const { client, userId } = await signedIn();
    const enrolled = await enrolTotp(client, "to rename");
    const listed = await admin.mfa.listFactors({ userId });
    expect(listed.error).toBeNull();
    expect(listed.data?.factors).toEqual([expect.objectContaining({ id: enrolled.id, factor_type: "totp" })]);

    const renamed = await fetch(`${server.url}/admin/users/${userId}/factors/${enrolled.id}`, {
      method: "PUT",
      headers: { Authorization: `Bearer ${serviceKey}`, "content-type": "application/json" },
      body: JSON.stringify({ friendly_name: "renamed" }),
    });
    expect(renamed.status).toBe(200);
    expect(await renamed.json()).toMatchObject({ id: enrolled.id, friendly_name: "renamed" });

    const deleted = await admin.mfa.deleteFactor({ userId, id: enrolled.id });
    expect(deleted.error).toBeNull();
    expect((deleted.data as unknown as { data: { id: string } }).data.id).toBe(enrolled.id);
    expect((await admin.mfa.listFactors({ userId })).data?.factors).toEqual([]);
  });
});
