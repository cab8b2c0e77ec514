import { createCipheriv, createHash, createHmac, hkdfSync, randomBytes } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { Sql } from "@authsvc/adapters";

/** The reference's own migrations (supabase/auth, MIT: see the LICENSE beside them). */
const MIGRATIONS = fileURLToPath(new URL("../fixtures/gotrue-migrations/", import.meta.url));

/**
 * Lays `schema` out as the reference's `migrate` command does: its migration files in name order,
 * each in a transaction, with its Go template's namespace filled in, and pop's `schema_migrations`.
 */
export async function createGotrueSchema(sql: Sql, schema: string): Promise<void> {
  await sql`create schema ${sql(schema)}`;
  await sql`create table ${sql(`${schema}.schema_migrations`)} (version varchar(14) not null primary key)`;
  const files = readdirSync(MIGRATIONS)
    .filter((f) => f.endsWith(".up.sql"))
    .sort();
  for (const file of files) {
    const text = readFileSync(join(MIGRATIONS, file), "utf8").replace(
      /\{\{\s*index \.Options "Namespace"\s*\}\}/g,
      schema,
    );
    await sql.begin(async (tx) => {
      await tx.unsafe(text);
      await tx`insert into ${tx(`${schema}.schema_migrations`)} (version) values (${file.split("_")[0] as string})`;
    });
  }
}

/** The reference's `crypto.NewEncryptedString`: AES-256-GCM under HKDF-SHA256(key, info = row id), as JSON. */
export function referenceEncrypt(
  rowId: string,
  plaintext: string,
  keyId: string,
  keyBase64Url: string,
): string {
  const key = Buffer.from(
    hkdfSync("sha256", Buffer.from(keyBase64Url, "base64url"), Buffer.alloc(0), rowId, 32),
  );
  const nonce = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", key, nonce);
  const data = Buffer.concat([cipher.update(plaintext, "utf8"), cipher.final(), cipher.getAuthTag()]);
  // Go's encoding/json writes []byte as standard base64.
  return JSON.stringify({
    key_id: keyId,
    alg: "aes-gcm-hkdf",
    data: data.toString("base64"),
    nonce: nonce.toString("base64"),
  });
}

/** The reference's `crypto.SecureAlphanumeric(12)`: its refresh tokens (first algorithm). */
export function referenceRefreshToken(): string {
  const alphabet = "abcdefghijklmnopqrstuvwxyz0123456789";
  return Array.from(randomBytes(12), (b) => alphabet[b % alphabet.length]).join("");
}

/**
 * `count` confirmed email users with one identity each, as the reference's sign-up writes them, all
 * with the same bcrypt `passwordHash`, a session and a refresh token each: what the benchmark imports.
 */
export async function fillGotrueBulk(
  sql: Sql,
  schema: string,
  count: number,
  passwordHash: string,
): Promise<void> {
  const s = (t: string) => sql(`${schema}.${t}`);
  await sql`
    insert into ${s("users")} (instance_id, id, aud, role, email, encrypted_password, email_confirmed_at,
      confirmation_token, recovery_token, email_change_token_new, email_change, raw_app_meta_data,
      raw_user_meta_data, created_at, updated_at, last_sign_in_at, is_sso_user, is_anonymous)
    select '00000000-0000-0000-0000-000000000000', gen_random_uuid(), 'authenticated', 'authenticated',
      'bulk-' || n || '@example.com', ${passwordHash}, now(), '', '', '', '',
      '{"provider":"email","providers":["email"]}', jsonb_build_object('n', n), now(), now(), now(), false, false
    from generate_series(1, ${count}) n
  `;
  await sql`
    insert into ${s("identities")} (id, provider_id, user_id, identity_data, provider, created_at, updated_at, last_sign_in_at)
    select gen_random_uuid(), u.id::text, u.id,
      jsonb_build_object('sub', u.id::text, 'email', u.email, 'email_verified', false, 'phone_verified', false),
      'email', now(), now(), now()
    from ${s("users")} u where u.email like 'bulk-%'
  `;
  await sql`
    insert into ${s("sessions")} (id, user_id, created_at, updated_at, aal)
    select gen_random_uuid(), u.id, now(), now(), 'aal1' from ${s("users")} u where u.email like 'bulk-%'
  `;
  await sql`
    insert into ${s("refresh_tokens")} (instance_id, token, user_id, revoked, created_at, updated_at, parent, session_id)
    select '00000000-0000-0000-0000-000000000000', substr(md5(random()::text || ss.id::text), 1, 12),
      ss.user_id::text, false, now(), now(), null, ss.id
    from ${s("sessions")} ss join ${s("users")} u on u.id = ss.user_id where u.email like 'bulk-%'
  `;
}

/**
 * The reference's `crypto.RefreshToken.Encode` (second algorithm), written from its Go source: what a
 * client of a session with `refresh_token_hmac_key` and `refresh_token_counter` holds.
 */
export function referenceRefreshTokenV2(sessionId: string, counter: number, hmacKey: Buffer): string {
  const varint: number[] = [];
  for (let rest = counter; ; rest = Math.floor(rest / 128)) {
    if (rest < 128) {
      varint.push(rest);
      break;
    }
    varint.push((rest % 128) | 0x80);
  }
  const head = Buffer.concat([
    Buffer.from([0]),
    Buffer.from(sessionId.replaceAll("-", ""), "hex"),
    Buffer.from(varint),
  ]);
  const signed = Buffer.concat([head, createHmac("sha256", hmacKey).update(head).digest().subarray(0, 16)]);
  return Buffer.concat([signed, createHash("sha256").update(signed).digest().subarray(0, 4)]).toString(
    "base64url",
  );
}
