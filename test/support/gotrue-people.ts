import { randomBytes, randomUUID } from "node:crypto";
import { hashSync } from "bcryptjs";
import { Secret } from "otpauth";
import type { Sql } from "postgres";
import { referenceEncrypt, referenceRefreshToken } from "./gotrue-source.js";

/**
 * The people of the import's end-to-end test, and their rows in a database the reference's
 * migrations laid out, written as the reference's sign-up, MFA enrolment, sign-in and refresh do.
 */
export const GOTRUE_KEY = { id: "gotrue-key-1", key: randomBytes(32).toString("base64url") };
export const AUTHSVC_KEY = { id: "authsvc-key-1", key: randomBytes(32).toString("base64url") };
export const TOTP_SECRET = new Secret({ size: 20 }).base32;
export const PASSWORD = "old-gotrue-password";

export const alice = {
  id: randomUUID(),
  email: "alice@example.com",
  session: randomUUID(),
  factor: randomUUID(),
};
export const bob = {
  id: randomUUID(),
  email: "bob@example.com",
  session: randomUUID(),
  hmacKey: randomBytes(32),
  // A second device, which does not refresh until after the move.
  idleSession: randomUUID(),
  idleKey: randomBytes(32),
  phoneFactor: randomUUID(),
};
export const twins = [randomUUID(), randomUUID()];
export const erin = { id: randomUUID(), email: "erin@example.com", factor: randomUUID() };
export const aliceTokens = { first: referenceRefreshToken(), current: referenceRefreshToken() };
export const BOB_COUNTER = 300;

/** The reference's rows, as its sign-up, MFA enrolment, sign-in and refresh write them. */
export async function fillSource(sql: Sql, sourceSchema: string): Promise<void> {
  const s = (name: string) => sql(`${sourceSchema}.${name}`);
  // GoTrue: golang.org/x/crypto/bcrypt at its DefaultCost, which writes the $2a$ prefix.
  const hash = hashSync(PASSWORD, 10).replace(/^\$2b\$/, "$2a$");
  const user = (id: string, email: string) => ({
    instance_id: "00000000-0000-0000-0000-000000000000",
    id,
    aud: "authenticated",
    role: "authenticated",
    email,
    encrypted_password: hash,
    email_confirmed_at: new Date("2025-01-02T03:04:05Z"),
    confirmation_token: "",
    recovery_token: "",
    email_change_token_new: "",
    email_change: "",
    raw_app_meta_data: sql.json({ provider: "email", providers: ["email"] }),
    raw_user_meta_data: sql.json({ name: email.split("@")[0] as string }),
    created_at: new Date("2025-01-02T03:04:05.123456Z"),
    updated_at: new Date("2025-01-02T03:04:05.123456Z"),
    is_sso_user: false,
    is_anonymous: false,
  });
  await sql`insert into ${s("users")} ${sql([
    user(alice.id, alice.email),
    user(bob.id, bob.email),
    // Two addresses the reference kept apart by case: authsvc's key on email ignores case.
    user(twins[0] as string, "Twin@Example.com"),
    user(twins[1] as string, "twin@example.com"),
    user(erin.id, erin.email),
  ])}`;
  // Microseconds the import must carry over unchanged (a JavaScript Date has none).
  await sql`update ${s("users")} set updated_at = '2025-01-02 03:04:05.123456+00' where id = ${alice.id}`;
  for (const [id, email] of [
    [alice.id, alice.email],
    [bob.id, bob.email],
    [erin.id, erin.email],
    [twins[0] as string, "Twin@Example.com"],
    [twins[1] as string, "twin@example.com"],
  ] as const) {
    await sql`
      insert into ${s("identities")} (id, provider_id, user_id, identity_data, provider, created_at, updated_at)
      values (gen_random_uuid(), ${id}, ${id},
        ${sql.json({ sub: id, email, email_verified: false, phone_verified: false })}, 'email', now(), now())
    `;
  }
  await sql`
    insert into ${s("mfa_factors")} (id, user_id, friendly_name, factor_type, status, created_at, updated_at, secret)
    values (${alice.factor}, ${alice.id}, 'phone app', 'totp', 'verified', now(), now(),
      ${referenceEncrypt(alice.factor, TOTP_SECRET, GOTRUE_KEY.id, GOTRUE_KEY.key)})
  `;
  await sql`
    insert into ${s("mfa_factors")} (id, user_id, friendly_name, factor_type, status, created_at, updated_at, phone)
    values (${bob.phoneFactor}, ${bob.id}, 'my phone', 'phone', 'verified', now(), now(), '15550001234')
  `;
  await sql`
    insert into ${s("mfa_factors")} (id, user_id, friendly_name, factor_type, status, created_at, updated_at, web_authn_credential)
    values (${erin.factor}, ${erin.id}, 'key', 'webauthn', 'verified', now(), now(), '{}')
  `;
  // Alice: signed in with her password, then raised to aal2 with TOTP, then refreshed once.
  await sql`
    insert into ${s("sessions")} (id, user_id, created_at, updated_at, factor_id, aal, refreshed_at, user_agent, ip)
    values (${alice.session}, ${alice.id}, now() - interval '1 hour', now() - interval '50 minutes',
      ${alice.factor}, 'aal2', (now() - interval '10 minutes') at time zone 'UTC', 'old-client', '192.0.2.1')
  `;
  await sql`
    insert into ${s("mfa_amr_claims")} (id, session_id, created_at, updated_at, authentication_method)
    values (gen_random_uuid(), ${alice.session}, now() - interval '1 hour', now() - interval '1 hour', 'password'),
      (gen_random_uuid(), ${alice.session}, now() - interval '50 minutes', now() - interval '50 minutes', 'totp')
  `;
  await sql`
    insert into ${s("refresh_tokens")} (instance_id, token, user_id, revoked, created_at, updated_at, parent, session_id)
    values ('00000000-0000-0000-0000-000000000000', ${aliceTokens.first}, ${alice.id}, true,
        now() - interval '1 hour', now() - interval '10 minutes', null, ${alice.session}),
      ('00000000-0000-0000-0000-000000000000', ${aliceTokens.current}, ${alice.id}, false,
        now() - interval '10 minutes', now() - interval '10 minutes', ${aliceTokens.first}, ${alice.session})
  `;
  // Bob: a session of the reference's second token algorithm, its HMAC key encrypted.
  await sql`
    insert into ${s("sessions")} (id, user_id, created_at, updated_at, aal, refresh_token_hmac_key, refresh_token_counter)
    values (${bob.session}, ${bob.id}, now(), now(), 'aal1',
      ${referenceEncrypt(bob.session, bob.hmacKey.toString("base64url"), GOTRUE_KEY.id, GOTRUE_KEY.key)}, ${BOB_COUNTER}),
      (${bob.idleSession}, ${bob.id}, now(), now(), 'aal1', ${bob.idleKey.toString("base64url")}, 7)
  `;
  await sql`
    insert into ${s("audit_log_entries")} (instance_id, id, payload, created_at, ip_address)
    values ('00000000-0000-0000-0000-000000000000', gen_random_uuid(),
      ${sql.json({ action: "login", actor_id: alice.id })}, now(), '192.0.2.1')
  `;
}
