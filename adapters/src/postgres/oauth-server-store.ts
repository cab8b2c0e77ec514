import type { Repositories } from "@authsvc/core";
import type {
  OAuthClientAssertionStore,
  OAuthConsent,
  OAuthConsentStore,
  OAuthPushedRequestStore,
  OAuthScope,
  OAuthScopeStore,
} from "@authsvc/core/oauth-server";
import type { Row } from "postgres";
import { postgresOAuthAuthorizations } from "./oauth-authorizations-store.js";
import { clientFromRow, postgresOAuthClients } from "./oauth-clients-store.js";
import { isUuid, json, type Queryable } from "./rows.js";

function consentFromRow(row: Row): OAuthConsent {
  return {
    id: row.id,
    userId: row.user_id,
    clientId: row.client_id,
    scopes: row.scopes,
    resources: row.resources ?? [],
    grantedAt: row.granted_at,
    revokedAt: row.revoked_at,
  };
}

/** `OAuthConsentStore` over `oauth_consents`, one row per (user, client). */
export function postgresOAuthConsents(sql: Queryable, options: { namespace: string }): OAuthConsentStore {
  const ns = sql(options.namespace);
  const consents = sql`${ns}.oauth_consents`;
  return {
    async findActive(userId, clientId) {
      if (!isUuid(userId) || !isUuid(clientId)) return null;
      const [row] = await sql`
        select * from ${consents}
        where user_id = ${userId} and client_id = ${clientId} and revoked_at is null`;
      return row ? consentFromRow(row) : null;
    },
    async approve(c) {
      // The upsert's row lock orders racing approvals: each adds its scopes to what the last committed.
      // An unrevoked consent keeps its scopes and resources, in their order, and gains the new ones
      // after them.
      await sql`
        insert into ${consents} as c (id, user_id, client_id, scopes, resources, granted_at, revoked_at)
        values (
          ${c.id}, ${c.userId}, ${c.clientId}, ${c.scopes},
          ${sql.array([...new Set(c.resources)])}::text[], ${c.grantedAt}, null
        )
        on conflict (user_id, client_id) do update
        set scopes = case when c.revoked_at is not null then excluded.scopes else (
              select string_agg(scope, ' ' order by first)
              from (
                select scope, min(n) as first
                from unnest(string_to_array(c.scopes || ' ' || excluded.scopes, ' ')) with ordinality as s(scope, n)
                where scope <> ''
                group by scope
              ) as granted
            ) end,
          resources = case when c.revoked_at is not null then excluded.resources else array(
              select resource
              from unnest(c.resources || excluded.resources) with ordinality as r(resource, n)
              group by resource
              order by min(n)
            ) end,
          granted_at = excluded.granted_at,
          revoked_at = null`;
    },
    async listActive(userId) {
      if (!isUuid(userId)) return [];
      const rows = await sql`
        select to_json(c) as consent, to_json(k) as client
        from ${consents} c
        join ${ns}.oauth_clients k on k.id = c.client_id and k.deleted_at is null
        where c.user_id = ${userId} and c.revoked_at is null
        order by c.granted_at desc, c.id`;
      const dated = (row: Record<string, unknown>, ...keys: string[]) => {
        const out: Record<string, unknown> = { ...row };
        for (const key of keys) out[key] = out[key] == null ? null : new Date(out[key] as string);
        return out as Row;
      };
      return rows.map((row) => ({
        consent: consentFromRow(dated(row.consent, "granted_at", "revoked_at")),
        client: clientFromRow(dated(row.client, "created_at", "updated_at")),
      }));
    },
    async revoke(userId, clientId, at) {
      if (!isUuid(userId) || !isUuid(clientId)) return false;
      const [row] = await sql`
        with revoked as (
          update ${consents} set revoked_at = ${at}
          where user_id = ${userId} and client_id = ${clientId} and revoked_at is null
          returning user_id, client_id
        ), ended as (
          delete from ${ns}.sessions s
          using revoked r
          where s.user_id = r.user_id and s.oauth_client_id = r.client_id
        )
        select count(*)::int as n from revoked`;
      return (row?.n ?? 0) > 0;
    },
  };
}

/** `OAuthPushedRequestStore` over `oauth_pushed_requests`: taking a request deletes its row. */
export function postgresOAuthPushedRequests(
  sql: Queryable,
  options: { namespace: string },
): OAuthPushedRequestStore {
  const table = sql`${sql(options.namespace)}.oauth_pushed_requests`;
  return {
    async insert(r) {
      await sql`insert into ${table} ${sql({
        id: r.id,
        request_uri_hash: r.requestUriHash,
        client_id: r.clientId,
        parameters: json(sql, r.parameters),
        created_at: r.createdAt,
        expires_at: r.expiresAt,
      })}`;
    },
    async take(hash, clientId, now) {
      if (!isUuid(clientId)) return null;
      // One statement: of two takers, the second finds the row gone.
      const [row] = await sql`
        delete from ${table}
        where request_uri_hash = ${hash} and client_id = ${clientId} and expires_at > ${now}
        returning *`;
      if (!row) return null;
      return {
        id: row.id,
        requestUriHash: row.request_uri_hash,
        clientId: row.client_id,
        parameters: row.parameters,
        createdAt: row.created_at,
        expiresAt: row.expires_at,
      };
    },
  };
}

/** `OAuthClientAssertionStore` over `oauth_client_assertion_jtis`, one row per (client, jti). */
export function postgresOAuthClientAssertions(
  sql: Queryable,
  options: { namespace: string },
): OAuthClientAssertionStore {
  const table = sql`${sql(options.namespace)}.oauth_client_assertion_jtis`;
  return {
    async use(clientId, jti, expiresAt, now) {
      if (!isUuid(clientId)) return false;
      // A row the cleanup has not removed yet, of an assertion long expired, is taken over.
      const rows = await sql`
        insert into ${table} as t (client_id, jti, expires_at)
        values (${clientId}, ${jti}, ${expiresAt})
        on conflict (client_id, jti) do update set expires_at = excluded.expires_at
        where t.expires_at <= ${now}
        returning 1`;
      return rows.length > 0;
    },
  };
}

const scopeFromRow = (row: Row): OAuthScope => ({
  scope: row.scope,
  resource: row.resource,
  description: row.description,
  createdAt: row.created_at,
});

/** `OAuthScopeStore` over `oauth_scopes`, by the scope's unique name. */
export function postgresOAuthScopes(sql: Queryable, options: { namespace: string }): OAuthScopeStore {
  const scopes = sql`${sql(options.namespace)}.oauth_scopes`;
  return {
    async insert(s) {
      const rows = await sql`
        insert into ${scopes} (scope, resource, description, created_at)
        values (${s.scope}, ${s.resource}, ${s.description}, ${s.createdAt})
        on conflict (scope) do nothing
        returning scope`;
      return rows.length > 0;
    },
    async list() {
      return (await sql`select * from ${scopes} order by scope`).map(scopeFromRow);
    },
    async find(names) {
      if (names.length === 0) return [];
      const rows = await sql`select * from ${scopes} where scope = any(${sql.array([...names])}::text[])`;
      return rows.map(scopeFromRow);
    },
    async delete(scope) {
      const result = await sql`delete from ${scopes} where scope = ${scope}`;
      return result.count > 0;
    },
  };
}

/** The OAuth server's repositories on `sql`. */
export function postgresOAuthServerRepositories(
  sql: Queryable,
  options: { namespace: string },
): Pick<
  Repositories,
  | "oauthClients"
  | "oauthAuthorizations"
  | "oauthConsents"
  | "oauthPushedRequests"
  | "oauthClientAssertions"
  | "oauthScopes"
> {
  return {
    oauthClients: postgresOAuthClients(sql, options),
    oauthAuthorizations: postgresOAuthAuthorizations(sql, options),
    oauthConsents: postgresOAuthConsents(sql, options),
    oauthPushedRequests: postgresOAuthPushedRequests(sql, options),
    oauthClientAssertions: postgresOAuthClientAssertions(sql, options),
    oauthScopes: postgresOAuthScopes(sql, options),
  };
}
