import type { OAuthAuthorization, OAuthAuthorizationStore } from "@authsvc/core/oauth-server";
import type { CodeChallengeMethod } from "@authsvc/core/pkce";
import type { Row } from "postgres";
import { json, type Queryable } from "./rows.js";

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
    authentication: row.aal === null ? null : { aal: row.aal, amr: row.amr ?? [] },
    sessionId: row.session_id,
    ...(row.dpop_jkt === null ? {} : { dpopJkt: row.dpop_jkt }),
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

function authorizationColumns(sql: Queryable, a: OAuthAuthorization) {
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
    aal: a.authentication?.aal ?? null,
    amr: a.authentication ? json(sql, a.authentication.amr) : null,
    session_id: a.sessionId ?? null,
    device_code_hash: a.device?.deviceCodeHash ?? null,
    user_code_hash: a.device?.userCodeHash ?? null,
    poll_interval: a.device?.interval ?? null,
    last_polled_at: a.device?.lastPolledAt ?? null,
    dpop_jkt: a.dpopJkt ?? null,
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
      await sql`insert into ${table} ${sql(authorizationColumns(sql, a))}`;
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
      const { id: _id, ...columns } = authorizationColumns(sql, a);
      await sql`update ${table} set ${sql(columns)} where id = ${a.id}`;
    },
    async spend(id, sessionId) {
      const result = await sql`
        update ${table} set session_id = ${sessionId} where id = ${id} and session_id is null`;
      return result.count > 0;
    },
    async insertDevice(a) {
      const result = await sql`
        insert into ${table} ${sql(authorizationColumns(sql, a))}
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
