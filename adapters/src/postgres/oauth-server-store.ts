import type { Repositories } from "@authsvc/core";
import type {
  OAuthAuthorization,
  OAuthAuthorizationStore,
  OAuthClient,
  OAuthClientAssertionStore,
  OAuthClientStore,
  OAuthConsent,
  OAuthConsentStore,
  OAuthPushedRequestStore,
  OAuthScope,
  OAuthScopeStore,
} from "@authsvc/core/oauth-server";
import type { CodeChallengeMethod } from "@authsvc/core/pkce";
import type { Row } from "postgres";
import { isUuid, json, type Queryable } from "./rows.js";

function clientFromRow(row: Row): OAuthClient {
  return {
    id: row.id,
    secretHash: row.client_secret_hash,
    registrationType: row.registration_type,
    clientType: row.client_type,
    authMethod: row.token_endpoint_auth_method,
    redirectUris: row.redirect_uris,
    grantTypes: row.grant_types,
    name: row.client_name,
    uri: row.client_uri,
    logoUri: row.logo_uri,
    jwks: row.jwks ?? null,
    jwksUri: row.jwks_uri ?? null,
    secretSealed: row.client_secret_sealed ?? null,
    requirePushedAuthorizationRequests: row.require_pushed_authorization_requests === true,
    ...(row.dpop_bound_access_tokens ? { dpopBoundAccessTokens: true } : {}),
    tokenExchangeAudiences: row.token_exchange_audiences ?? [],
    tokenExchangeImpersonation: row.token_exchange_impersonation ?? false,
    scope: row.scope ?? null,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    postLogoutRedirectUris: row.post_logout_redirect_uris ?? [],
    backchannelLogoutUri: row.backchannel_logout_uri ?? null,
    backchannelLogoutSessionRequired: row.backchannel_logout_session_required ?? false,
    ...(row.metadata_url
      ? { metadataUrl: row.metadata_url, metadataExpiresAt: row.metadata_expires_at }
      : {}),
  };
}

function clientColumns(sql: Queryable, client: OAuthClient) {
  return {
    id: client.id,
    client_secret_hash: client.secretHash,
    registration_type: client.registrationType,
    client_type: client.clientType,
    token_endpoint_auth_method: client.authMethod,
    redirect_uris: json(sql, client.redirectUris),
    grant_types: json(sql, client.grantTypes),
    client_name: client.name,
    client_uri: client.uri,
    logo_uri: client.logoUri,
    jwks: client.jwks ? json(sql, client.jwks) : null,
    jwks_uri: client.jwksUri ?? null,
    client_secret_sealed: client.secretSealed ?? null,
    require_pushed_authorization_requests: client.requirePushedAuthorizationRequests === true,
    dpop_bound_access_tokens: client.dpopBoundAccessTokens === true,
    token_exchange_audiences: json(sql, client.tokenExchangeAudiences ?? []),
    token_exchange_impersonation: client.tokenExchangeImpersonation ?? false,
    scope: client.scope ?? null,
    created_at: client.createdAt,
    updated_at: client.updatedAt,
    post_logout_redirect_uris: json(sql, client.postLogoutRedirectUris ?? []),
    backchannel_logout_uri: client.backchannelLogoutUri ?? null,
    backchannel_logout_session_required: client.backchannelLogoutSessionRequired ?? false,
    ...(client.metadataUrl
      ? { metadata_url: client.metadataUrl, metadata_expires_at: client.metadataExpiresAt ?? null }
      : {}),
  };
}

function authorizationFromRow(row: Row): OAuthAuthorization {
  return {
    id: row.id,
    authorizationId: row.authorization_id,
    clientId: row.client_id,
    userId: row.user_id,
    redirectUri: row.redirect_uri,
    scope: row.scope,
    state: row.state,
    resource: row.resource,
    codeChallenge: row.code_challenge,
    codeChallengeMethod: row.code_challenge_method as CodeChallengeMethod,
    nonce: row.nonce,
    status: row.status,
    codeHash: row.authorization_code,
    createdAt: row.created_at,
    expiresAt: row.expires_at,
    approvedAt: row.approved_at,
    authTime: row.auth_time,
    sessionId: row.session_id,
    // Only a device's request has one: a browser's reads as it was written, without the field.
    ...(row.device_code_hash === null
      ? {}
      : {
          device: {
            deviceCodeHash: row.device_code_hash,
            userCodeHash: row.user_code_hash,
            interval: row.poll_interval,
            lastPolledAt: row.last_polled_at,
          },
        }),
  };
}

function authorizationColumns(a: OAuthAuthorization) {
  return {
    id: a.id,
    authorization_id: a.authorizationId,
    client_id: a.clientId,
    user_id: a.userId,
    redirect_uri: a.redirectUri,
    scope: a.scope,
    state: a.state,
    resource: a.resource,
    code_challenge: a.codeChallenge,
    code_challenge_method: a.codeChallengeMethod,
    nonce: a.nonce,
    status: a.status,
    authorization_code: a.codeHash,
    created_at: a.createdAt,
    expires_at: a.expiresAt,
    approved_at: a.approvedAt,
    auth_time: a.authTime,
    session_id: a.sessionId ?? null,
    device_code_hash: a.device?.deviceCodeHash ?? null,
    user_code_hash: a.device?.userCodeHash ?? null,
    poll_interval: a.device?.interval ?? null,
    last_polled_at: a.device?.lastPolledAt ?? null,
  };
}

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

/** `OAuthClientStore` over `oauth_clients`; a deleted client (`deleted_at`) is never read. */
export function postgresOAuthClients(sql: Queryable, options: { namespace: string }): OAuthClientStore {
  const ns = sql(options.namespace);
  const clients = sql`${ns}.oauth_clients`;
  return {
    async insert(client) {
      await sql`insert into ${clients} ${sql(clientColumns(sql, client))}`;
    },
    async find(id) {
      if (!isUuid(id)) return null;
      const [row] = await sql`select * from ${clients} where id = ${id} and deleted_at is null`;
      return row ? clientFromRow(row) : null;
    },
    async findByMetadataUrl(url) {
      const [row] = await sql`
        select * from ${clients} where metadata_url = ${url} and deleted_at is null`;
      return row ? clientFromRow(row) : null;
    },
    async saveMetadataClient(client) {
      const { id: _id, created_at: _created, ...columns } = clientColumns(sql, client);
      // One live row per URL (the partial unique index): a racing first use updates the winner's row.
      const [row] = await sql`
        insert into ${clients} ${sql(clientColumns(sql, client))}
        on conflict (metadata_url) where deleted_at is null and metadata_url is not null
        do update set ${sql(columns)}
        returning *`;
      return clientFromRow(row as Row);
    },
    async list({ offset, limit }) {
      const [rows, [count]] = await Promise.all([
        sql`
          select * from ${clients} where deleted_at is null
          order by created_at desc, id limit ${limit} offset ${offset}`,
        sql`select count(*)::int as n from ${clients} where deleted_at is null`,
      ]);
      return { clients: rows.map(clientFromRow), total: count?.n ?? 0 };
    },
    async update(client) {
      const { id: _id, created_at: _created, ...columns } = clientColumns(sql, client);
      const result = await sql`
        update ${clients} set ${sql(columns)} where id = ${client.id} and deleted_at is null`;
      return result.count > 0;
    },
    async softDelete(id, at) {
      if (!isUuid(id)) return false;
      // The client's sessions end with it, in the same statement.
      const [row] = await sql`
        with deleted as (
          update ${clients} set deleted_at = ${at}, updated_at = ${at}
          where id = ${id} and deleted_at is null
          returning id
        ), ended as (
          delete from ${ns}.sessions where oauth_client_id in (select id from deleted)
        )
        select count(*)::int as n from deleted`;
      return (row?.n ?? 0) > 0;
    },
  };
}

/**
 * `OAuthAuthorizationStore` over `oauth_authorizations`. A code is spent by setting its row's
 * `session_id` after `for update`: a second exchange of one code waits for the first's lock, then
 * finds the code spent and the session to end.
 */
export function postgresOAuthAuthorizations(
  sql: Queryable,
  options: { namespace: string },
): OAuthAuthorizationStore {
  const table = sql`${sql(options.namespace)}.oauth_authorizations`;
  return {
    async insert(a) {
      await sql`insert into ${table} ${sql(authorizationColumns(a))}`;
    },
    async lockByAuthorizationId(authorizationId) {
      const [row] = await sql`
        select * from ${table} where authorization_id = ${authorizationId} for update skip locked`;
      return row ? authorizationFromRow(row) : null;
    },
    async lockApprovedByCode(codeHash) {
      const [row] = await sql`
        select * from ${table}
        where authorization_code = ${codeHash} and status = 'approved'
        for update`;
      return row ? authorizationFromRow(row) : null;
    },
    async update(a) {
      const { id: _id, ...columns } = authorizationColumns(a);
      await sql`update ${table} set ${sql(columns)} where id = ${a.id}`;
    },
    async spend(id, sessionId) {
      const result = await sql`
        update ${table} set session_id = ${sessionId} where id = ${id} and session_id is null`;
      return result.count > 0;
    },
    async insertDevice(a) {
      const result = await sql`
        insert into ${table} ${sql(authorizationColumns(a))}
        on conflict (user_code_hash) where user_code_hash is not null do nothing`;
      return result.count > 0;
    },
    async findByUserCode(userCodeHash) {
      const [row] = await sql`select * from ${table} where user_code_hash = ${userCodeHash}`;
      return row ? authorizationFromRow(row) : null;
    },
    async lockByDeviceCode(deviceCodeHash) {
      const [row] = await sql`
        select * from ${table} where device_code_hash = ${deviceCodeHash} for update`;
      return row ? authorizationFromRow(row) : null;
    },
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
