import type {
  CeremonyState,
  Passkey,
  PasskeyStore,
  WebauthnChallenge,
  WebauthnChallengeStore,
} from "@authsvc/core/passkeys";
import { isUuid, json, type Queryable } from "./rows.js";

type Row = Record<string, unknown>;

const bytes = (base64url: string): Buffer => Buffer.from(base64url, "base64url");
const base64url = (value: unknown): string => (Buffer.isBuffer(value) ? value.toString("base64url") : "");
const at = (value: unknown): Date => (value instanceof Date ? value : new Date(String(value)));

function passkeyFromRow(row: Row): Passkey {
  return {
    id: String(row.id),
    userId: String(row.user_id),
    credentialId: base64url(row.credential_id),
    publicKey: base64url(row.public_key),
    attestationType: String(row.attestation_type ?? ""),
    aaguid: typeof row.aaguid === "string" ? row.aaguid : null,
    // bigint arrives as text; a counter is at most 2^32 - 1.
    signCount: Number(row.sign_count ?? 0),
    transports: Array.isArray(row.transports) ? row.transports.filter((t) => typeof t === "string") : [],
    backupEligible: row.backup_eligible === true,
    backedUp: row.backed_up === true,
    friendlyName: String(row.friendly_name ?? ""),
    createdAt: at(row.created_at),
    updatedAt: at(row.updated_at),
    lastUsedAt: row.last_used_at === null || row.last_used_at === undefined ? null : at(row.last_used_at),
  };
}

function challengeFromRow(row: Row): WebauthnChallenge {
  const data = (row.session_data ?? {}) as Partial<CeremonyState>;
  return {
    id: String(row.id),
    userId: typeof row.user_id === "string" ? row.user_id : null,
    type: row.challenge_type === "registration" ? "registration" : "authentication",
    state: { challenge: String(data.challenge ?? ""), userVerification: String(data.userVerification ?? "") },
    createdAt: at(row.created_at),
    expiresAt: at(row.expires_at),
  };
}

/** `PasskeyStore` over `webauthn_credentials` of `namespace`. */
export function postgresPasskeyStore(sql: Queryable, options: { namespace: string }): PasskeyStore {
  const credentials = sql`${sql(options.namespace)}.webauthn_credentials`;
  return {
    async insert(p) {
      // The unique credential id turns a second registration of one credential, by anyone, into no row.
      const [row] = await sql`
        insert into ${credentials} ${sql({
          id: p.id,
          user_id: p.userId,
          credential_id: bytes(p.credentialId),
          public_key: bytes(p.publicKey),
          attestation_type: p.attestationType,
          aaguid: p.aaguid,
          sign_count: p.signCount,
          transports: json(sql, p.transports),
          backup_eligible: p.backupEligible,
          backed_up: p.backedUp,
          friendly_name: p.friendlyName,
          created_at: p.createdAt,
          updated_at: p.updatedAt,
          last_used_at: p.lastUsedAt,
        })}
        on conflict (credential_id) do nothing
        returning id
      `;
      return row ? "inserted" : "exists";
    },

    async listByUser(userId) {
      if (!isUuid(userId)) return [];
      const rows = await sql`select * from ${credentials} where user_id = ${userId} order by created_at, id`;
      return rows.map(passkeyFromRow);
    },

    async findOwned(userId, id) {
      if (!isUuid(userId) || !isUuid(id)) return null;
      const [row] = await sql`select * from ${credentials} where id = ${id} and user_id = ${userId}`;
      return row ? passkeyFromRow(row) : null;
    },

    async rename(userId, id, friendlyName, when) {
      if (!isUuid(userId) || !isUuid(id)) return null;
      const [row] = await sql`
        update ${credentials}
        set friendly_name = ${friendlyName}, updated_at = ${when}
        where id = ${id} and user_id = ${userId}
        returning *
      `;
      return row ? passkeyFromRow(row) : null;
    },

    async delete(userId, id) {
      if (!isUuid(userId) || !isUuid(id)) return false;
      return (await sql`delete from ${credentials} where id = ${id} and user_id = ${userId}`).count > 0;
    },

    async recordUse(id, use) {
      if (!isUuid(id)) return false;
      // The row lock orders concurrent updates; each re-reads the counter, so one value counts once.
      const result = await sql`
        update ${credentials}
        set sign_count = ${use.signCount}, backed_up = ${use.backedUp}, last_used_at = ${use.at}, updated_at = ${use.at}
        where id = ${id}
          and (sign_count < ${use.signCount} or (sign_count = 0 and ${use.signCount}::bigint = 0))
      `;
      return result.count > 0;
    },
  };
}

/** `WebauthnChallengeStore` over `webauthn_challenges` of `namespace`. */
export function postgresWebauthnChallengeStore(
  sql: Queryable,
  options: { namespace: string },
): WebauthnChallengeStore {
  const challenges = sql`${sql(options.namespace)}.webauthn_challenges`;
  return {
    async insert(c) {
      await sql`
        insert into ${challenges} ${sql({
          id: c.id,
          user_id: c.userId,
          challenge_type: c.type,
          session_data: json(sql, c.state),
          created_at: c.createdAt,
          expires_at: c.expiresAt,
        })}
      `;
    },

    async consume(id, type, userId) {
      if (!isUuid(id) || (userId !== null && !isUuid(userId))) return null;
      // One statement: the row lock makes concurrent deletes of one row wait, and all but the first
      // find it gone, so exactly one caller gets the challenge.
      const [row] = await sql`
        delete from ${challenges}
        where id = ${id}
          and challenge_type = ${type}
          and user_id is not distinct from ${userId}
        returning *
      `;
      return row ? challengeFromRow(row) : null;
    },

    async deleteExpired(now) {
      return (await sql`delete from ${challenges} where expires_at < ${now}`).count;
    },
  };
}
