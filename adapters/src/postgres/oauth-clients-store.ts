import type { OAuthClient, OAuthClientStore } from "@authsvc/core/oauth-server";
import type { Row } from "postgres";
import { isUuid, json, type Queryable } from "./rows.js";

/** A client as its `oauth_clients` row holds it (also read from the row's JSON in a join). */
export function clientFromRow(row: Row): OAuthClient {
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
