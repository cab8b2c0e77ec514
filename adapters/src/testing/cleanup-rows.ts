import { randomBytes, randomUUID } from "node:crypto";
import type { Sql } from "postgres";

/** Milliseconds in an hour and in a day, for stamps in the past. */
export const HOUR_MS = 60 * 60 * 1000;
export const DAY_MS = 24 * HOUR_MS;

/** A moment `ms` before now. */
export const ago = (ms: number): Date => new Date(Date.now() - ms);

const hash = () => randomBytes(32).toString("hex");

/**
 * Writes rows straight into a migrated schema, with the stamps a test chooses, as weeks of use would
 * leave them: for the cleanup's tests, which must see old rows go and live ones stay.
 */
export function cleanupRows(sql: Sql, namespace: string) {
  const ns = sql(namespace);
  return {
    async user(options: { createdAt?: Date; anonymous?: boolean } = {}): Promise<string> {
      const id = randomUUID();
      const at = options.createdAt ?? new Date();
      await sql`
        insert into ${ns}.users (id, aud, role, email, is_anonymous, created_at, updated_at)
        values (${id}, 'authenticated', 'authenticated',
          ${options.anonymous ? null : `${id}@example.test`}, ${options.anonymous ?? false}, ${at}, ${at})`;
      return id;
    },

    async session(
      userId: string,
      options: { createdAt?: Date; notAfter?: Date | null; refreshedAt?: Date | null } = {},
    ): Promise<string> {
      const id = randomUUID();
      const at = options.createdAt ?? new Date();
      await sql`
        insert into ${ns}.sessions (id, user_id, aal, created_at, updated_at, not_after, refreshed_at)
        values (${id}, ${userId}, 'aal1', ${at}, ${at}, ${options.notAfter ?? null}, ${options.refreshedAt ?? null})`;
      return id;
    },

    /**
     * A family of `revoked.length + 1` tokens in one session, each the child of the one before: the
     * revoked ones at the given stamps (revocation times), then the live one. Answers the hashes and
     * ids, oldest first; the last is live.
     */
    async family(
      userId: string,
      sessionId: string,
      revoked: readonly Date[],
    ): Promise<{ ids: number[]; hashes: string[] }> {
      const ids: number[] = [];
      const hashes: string[] = [];
      let parent: number | null = null;
      for (let i = 0; i <= revoked.length; i++) {
        const tokenHash = hash();
        const stamp = revoked[i] ?? new Date();
        const isRevoked = i < revoked.length;
        const inserted: { id: string }[] = await sql`
          insert into ${ns}.refresh_tokens (token_hash, user_id, session_id, parent_id, revoked, created_at, updated_at)
          values (${tokenHash}, ${userId}, ${sessionId}, ${parent}, ${isRevoked}, ${stamp}, ${stamp})
          returning id`;
        parent = Number(inserted[0]?.id);
        ids.push(parent);
        hashes.push(tokenHash);
      }
      return { ids, hashes };
    },

    async flowState(createdAt: Date, authCodeIssuedAt: Date | null = null): Promise<string> {
      const id = randomUUID();
      await sql`
        insert into ${ns}.flow_state (id, provider_type, authentication_method, created_at, updated_at, auth_code_issued_at)
        values (${id}, 'email', 'magiclink', ${createdAt}, ${createdAt}, ${authCodeIssuedAt})`;
      return id;
    },

    async factor(userId: string, status: "verified" | "unverified", createdAt: Date): Promise<string> {
      const id = randomUUID();
      await sql`
        insert into ${ns}.mfa_factors (id, user_id, friendly_name, factor_type, status, created_at, updated_at)
        values (${id}, ${userId}, ${id}, 'totp', ${status}, ${createdAt}, ${createdAt})`;
      return id;
    },

    async challenge(factorId: string, createdAt: Date): Promise<string> {
      const id = randomUUID();
      await sql`
        insert into ${ns}.mfa_challenges (id, factor_id, created_at, ip_address)
        values (${id}, ${factorId}, ${createdAt}, '127.0.0.1')`;
      return id;
    },

    async oneTimeToken(userId: string, type: string, createdAt: Date): Promise<string> {
      const id = randomUUID();
      await sql`
        insert into ${ns}.one_time_tokens (id, user_id, token_type, token_hash, relates_to, created_at, updated_at)
        values (${id}, ${userId}, ${type}, ${hash()}, 'someone@example.test', ${createdAt}, ${createdAt})`;
      return id;
    },

    async requestLimit(key: string, expire: Date): Promise<void> {
      await sql`insert into ${ns}.request_limits (key, points, expire) values (${key}, 1, ${expire.getTime()})`;
    },

    async sendWindow(key: string, windowStart: Date): Promise<void> {
      await sql`insert into ${ns}.send_quota (key, window_start, count) values (${key}, ${windowStart}, 1)`;
    },

    async auditEntry(createdAt: Date): Promise<string> {
      const id = randomUUID();
      await sql`
        insert into ${ns}.audit_log_entries (id, payload, created_at, ip_address)
        values (${id}, ${sql.json({ action: "login" })}, ${createdAt}, '')`;
      return id;
    },

    /** An OAuth-server authorization request (of a new public client) expiring at `expiresAt`. */
    async oauthAuthorization(expiresAt: Date, status: "pending" | "approved" = "pending"): Promise<string> {
      const client = randomUUID();
      await sql`
        insert into ${ns}.oauth_clients (id, registration_type, client_type, token_endpoint_auth_method, redirect_uris, grant_types)
        values (${client}, 'dynamic', 'public', 'none', ${sql.json(["http://127.0.0.1/cb"])}, ${sql.json(["authorization_code"])})`;
      const id = randomUUID();
      const createdAt = new Date(expiresAt.getTime() - 10 * 60 * 1000);
      await sql`
        insert into ${ns}.oauth_authorizations
          (id, authorization_id, client_id, redirect_uri, scope, code_challenge, code_challenge_method, status, created_at, expires_at)
        values (${id}, ${hash().slice(0, 32)}, ${client}, 'http://127.0.0.1/cb', 'email', ${hash()}, 's256', ${status}, ${createdAt}, ${expiresAt})`;
      return id;
    },

    /** A pushed authorization request (of a new public client) expiring at `expiresAt`. */
    async oauthPushedRequest(expiresAt: Date): Promise<string> {
      const client = randomUUID();
      await sql`
        insert into ${ns}.oauth_clients (id, registration_type, client_type, token_endpoint_auth_method, redirect_uris, grant_types)
        values (${client}, 'dynamic', 'public', 'none', ${sql.json(["http://127.0.0.1/cb"])}, ${sql.json(["authorization_code"])})`;
      const id = randomUUID();
      await sql`
        insert into ${ns}.oauth_pushed_requests (id, request_uri_hash, client_id, parameters, created_at, expires_at)
        values (${id}, ${hash()}, ${client}, ${sql.json({ state: "s" })}, ${new Date(expiresAt.getTime() - 60_000)}, ${expiresAt})`;
      return id;
    },

    /** A used client-assertion jti (of a new client) remembered until `expiresAt`; answers the jti. */
    async oauthAssertionJti(expiresAt: Date): Promise<string> {
      const client = randomUUID();
      await sql`
        insert into ${ns}.oauth_clients (id, registration_type, client_type, token_endpoint_auth_method, redirect_uris, grant_types)
        values (${client}, 'manual', 'confidential', 'private_key_jwt', ${sql.json(["https://a.example/cb"])}, ${sql.json(["authorization_code"])})`;
      const jti = hash();
      await sql`
        insert into ${ns}.oauth_client_assertion_jtis (client_id, jti, expires_at)
        values (${client}, ${jti}, ${expiresAt})`;
      return jti;
    },

    /** A client metadata document's client whose stored copy expires at `expiresAt`, with a pending request or not. */
    async metadataDocumentClient(expiresAt: Date, withRequest = false): Promise<string> {
      const id = randomUUID();
      await sql`
        insert into ${ns}.oauth_clients (id, registration_type, client_type, token_endpoint_auth_method, redirect_uris, grant_types, metadata_url, metadata_expires_at)
        values (${id}, 'dynamic', 'public', 'none', ${sql.json(["http://127.0.0.1/cb"])}, ${sql.json(["authorization_code"])}, ${`https://app.example/${id}.json`}, ${expiresAt})`;
      if (withRequest)
        await sql`
          insert into ${ns}.oauth_authorizations
            (id, authorization_id, client_id, redirect_uri, scope, code_challenge, code_challenge_method, created_at, expires_at)
          values (${randomUUID()}, ${hash().slice(0, 32)}, ${id}, 'http://127.0.0.1/cb', 'email', ${hash()}, 's256', now(), now() + interval '10 minutes')`;
      return id;
    },

    /** A WebAuthn challenge (of a passkey sign-in: no user) expiring at `expiresAt`. */
    async webauthnChallenge(expiresAt: Date): Promise<string> {
      const id = randomUUID();
      const createdAt = new Date(expiresAt.getTime() - 5 * 60 * 1000);
      await sql`
        insert into ${ns}.webauthn_challenges (id, challenge_type, session_data, created_at, expires_at)
        values (${id}, 'authentication', ${sql.json({ challenge: hash() })}, ${createdAt}, ${expiresAt})`;
      return id;
    },

    /** A SAML relay state (with its provider) made at `createdAt`. */
    async samlRelayState(createdAt: Date): Promise<string> {
      const provider = randomUUID();
      const id = randomUUID();
      await sql`insert into ${ns}.sso_providers (id) values (${provider})`;
      await sql`
        insert into ${ns}.saml_relay_states (id, sso_provider_id, request_id, created_at, updated_at)
        values (${id}, ${provider}, ${`_${hash().slice(0, 20)}`}, ${createdAt}, ${createdAt})`;
      return id;
    },

    /** How many rows `table` holds. */
    async count(table: string): Promise<number> {
      const [row] = await sql<{ n: number }[]>`select count(*)::int as n from ${ns}.${sql(table)}`;
      return row?.n ?? 0;
    },

    /** Which of `ids` are still rows of `table` (by its `id` column). */
    async present(table: string, ids: readonly (string | number)[]): Promise<(string | number)[]> {
      if (ids.length === 0) return [];
      const rows = await sql<{ id: string | number }[]>`
        select id from ${ns}.${sql(table)} where id::text = any(${ids.map(String)}::text[])`;
      const found = new Set(rows.map((row) => String(row.id)));
      return ids.filter((id) => found.has(String(id)));
    },
  };
}
