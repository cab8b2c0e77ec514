import { auditPayload } from "@authsvc/core/accounts";
import type { RefreshGrantOutcome, RefreshTokenRecord, Session, SessionStore } from "@authsvc/core/sessions";
import type { PendingQuery, Row } from "postgres";
import { factorsOf, identitiesOf, withFactors } from "./accounts-store.js";
import { fixedStatement, quoteIdentifier } from "./fixed-statement.js";
import {
  isTokenId,
  isUuid,
  json,
  type Queryable,
  refreshTokenColumns,
  refreshTokenFromRow,
  sessionColumns,
  sessionFromRow,
} from "./rows.js";
import { userFromSnapshot, userSnapshotColumns } from "./user-snapshot.js";

const GRANT_OUTCOMES = new Set([
  "not_found",
  "client_required",
  "client_not_allowed",
  "dpop_key_mismatch",
  "banned",
  "session_expired",
  "session_inactive",
  "session_superseded",
  "refused",
  "reused",
  "rotated",
  "reissued",
]);

/** The statements of GET /user and the refresh grant, their text made once (`fixedStatement`); `ns` quoted. */
function hotStatements(ns: string) {
  return {
    userAndSession: fixedStatement(`
      select
        ${userSnapshotColumns(ns)},
        (select to_json(s) from ${ns}.sessions s where s.id = $2) as session
      from ${ns}.users u
      left join ${ns}.user_snapshots us on us.user_id = u.id
      where u.id = $1
    `),
    userAndSessionThroughFunction: fixedStatement(`select * from ${ns}.user_and_session($1, $2)`),
    refreshGrant: fixedStatement(`
      select
        grant_outcome as outcome,
        grant_session_id,
        grant_user_id,
        session_aal,
        session_amr,
        session_created_at,
        session_updated_at,
        session_refreshed_at,
        session_not_after,
        session_oauth_client_id,
        session_scopes,
        session_resource,
        -- A client metadata document's client: its URL is the client_id its tokens name.
        (
          select c.metadata_url from ${ns}.oauth_clients c
          where c.id = g.session_oauth_client_id
        ) as session_oauth_client_url,
        session_dpop_jkt,
        user_body,
        user_encrypted_password,
        user_reauthentication_token
      from ${ns}.refresh_token_grant($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11) g
    `),
  };
}

/** `SessionStore` over the `sessions` and `refresh_tokens` tables of `namespace`. */
export function postgresSessionStore(
  sql: Queryable,
  options: {
    namespace: string;
    /**
     * The connections run unnamed statements (PgBouncer in transaction mode): the server plans each
     * statement at every run, so the hot read goes through a function whose plan the backend keeps.
     */
    unnamedStatements?: boolean;
  },
): SessionStore {
  const sessions = sql`${sql(options.namespace)}.sessions`;
  const tokens = sql`${sql(options.namespace)}.refresh_tokens`;
  const hot = hotStatements(quoteIdentifier(options.namespace));

  async function session(query: PendingQuery<Row[]>): Promise<Session | null> {
    const [row] = await query;
    return row ? sessionFromRow(row) : null;
  }

  async function token(query: PendingQuery<Row[]>): Promise<RefreshTokenRecord | null> {
    const [row] = await query;
    return row ? refreshTokenFromRow(row) : null;
  }

  return {
    async create(s, firstTokenHash) {
      if (firstTokenHash === undefined) {
        await sql`insert into ${sessions} ${sql(sessionColumns(sql, s))}`;
        return;
      }
      // One statement for the session and its first token (the token's foreign key sees the session).
      await sql`
        with session as (
          insert into ${sessions} ${sql(sessionColumns(sql, s))}
          returning id, user_id, created_at
        )
        insert into ${tokens} (token_hash, user_id, session_id, parent_id, revoked, created_at, updated_at)
        select ${firstTokenHash}, user_id, id, null, false, created_at, created_at
        from session
      `;
    },

    find: async (id) => (isUuid(id) ? session(sql`select * from ${sessions} where id = ${id}`) : null),

    async findUserAndSession(userId, sessionId) {
      if (!isUuid(userId)) return { user: null, session: null };
      const wanted = sessionId !== null && isUuid(sessionId) ? sessionId : null;
      // One statement: authenticating a request is one round trip. Without named statements, the same
      // read through a function (migrations/functions/user_and_session.sql), planned once per backend.
      const [row] = await (options.unnamedStatements
        ? hot.userAndSessionThroughFunction
        : hot.userAndSession)(sql, [userId, wanted]);
      if (!row) return { user: null, session: null };
      return { user: userFromSnapshot(row), session: row.session ? sessionFromRow(row.session) : null };
    },

    async listForUser(userId) {
      if (!isUuid(userId)) return [];
      const rows = await sql`
        select * from ${sessions}
        where user_id = ${userId}
        order by created_at, id
      `;
      return rows.map(sessionFromRow);
    },

    lock: async (id) =>
      isUuid(id) ? session(sql`select * from ${sessions} where id = ${id} for update`) : null,

    async markRefreshed(id, at) {
      if (!isUuid(id)) return;
      await sql`
        update ${sessions}
        set
          refreshed_at = ${at},
          updated_at = ${at}
        where id = ${id}
      `;
    },

    async deleteForUser(userId, options) {
      if (!isUuid(userId)) return 0;
      const except = options?.except;
      // A malformed `except` names no session, so nothing is kept.
      const keep = except !== undefined && isUuid(except) ? sql`and id <> ${except}` : sql``;
      const result = await sql`delete from ${sessions} where user_id = ${userId} ${keep}`;
      return result.count;
    },

    async delete(id) {
      if (!isUuid(id)) return false;
      const result = await sql`delete from ${sessions} where id = ${id}`;
      return result.count > 0;
    },

    async insertToken(record) {
      const [row] = await sql`insert into ${tokens} ${sql(refreshTokenColumns(record))} returning *`;
      if (!row) throw new Error("insert into refresh_tokens returned no row");
      return refreshTokenFromRow(row);
    },

    findTokenByHash: (hash) => token(sql`select * from ${tokens} where token_hash = ${hash}`),

    activeToken: async (sessionId) =>
      isUuid(sessionId)
        ? token(sql`
            select * from ${tokens}
            where session_id = ${sessionId}
              and revoked = false
            order by id desc
            limit 1
          `)
        : null,

    async revokeToken(id, at) {
      if (!isTokenId(id)) return;
      await sql`
        update ${tokens}
        set
          revoked = true,
          updated_at = ${at}
        where id = ${id}
      `;
    },

    async revokeDescendants(id, at) {
      if (!isTokenId(id)) return 0;
      // `union` (not `union all`) stops at a row already seen, so even a corrupt cyclic chain terminates.
      const result = await sql`
        with recursive descendants (id) as (
          select id from ${tokens} where parent_id = ${id}
          union
          select t.id
          from ${tokens} t
          join descendants d on t.parent_id = d.id
        )
        update ${tokens}
        set
          revoked = true,
          updated_at = ${at}
        where id in (select id from descendants)
          and revoked = false
      `;
      return result.count;
    },

    async grantRefresh(input): Promise<RefreshGrantOutcome> {
      // One round trip: the function (migrations/functions/refresh_token_grant.sql) makes the transition
      // and answers the session as it locked it (before the refresh: the caller stamps it) and the user:
      // its snapshot and the two secrets of its row that a snapshot leaves out.
      const [row] = await hot.refreshGrant(sql, [
        input.tokenHash,
        input.childHash,
        input.now,
        input.rotationEnabled,
        input.reuseIntervalMs,
        input.limits.timeboxMs,
        input.limits.inactivityTimeoutMs,
        input.limits.singlePerUser,
        input.ipAddress ?? "",
        input.clientId ?? null,
        input.dpopJkt ?? null,
      ]);
      const kind = row?.outcome;
      if (!row || !GRANT_OUTCOMES.has(kind)) throw new Error(`refresh_token_grant answered ${kind}`);
      if (kind !== "rotated" && kind !== "reissued") return { kind };
      if (!row.user_body) return { kind: "not_found" };
      const session = sessionFromRow({
        id: row.grant_session_id,
        user_id: row.grant_user_id,
        aal: row.session_aal,
        amr: row.session_amr,
        created_at: row.session_created_at,
        updated_at: row.session_updated_at,
        refreshed_at: row.session_refreshed_at,
        not_after: row.session_not_after,
        oauth_client_id: row.session_oauth_client_id,
        scopes: row.session_scopes,
        resource: row.session_resource,
        oauth_client_url: row.session_oauth_client_url,
        dpop_jkt: row.session_dpop_jkt,
      });
      return { kind, session, user: userFromSnapshot(row) };
    },

    async grantPassword(input) {
      if (!isUuid(input.userId)) return null;
      const ns = sql(options.namespace);
      const { session } = input;
      // The actor's fields are the function's, from the row as stamped.
      const payload = auditPayload({
        action: "login",
        actorId: input.userId,
        actorUsername: "",
        traits: { provider: input.provider },
        at: input.now,
      });
      // One round trip: the function (migrations/functions/password_grant.sql) writes; the identities and
      // factors are read in the same statement (the function writes neither).
      const [row] = await sql`
        select
          u.*,
          ${identitiesOf(sql, options.namespace)},
          ${factorsOf(sql, options.namespace)}
        from ${ns}.password_grant(
          ${input.userId},
          ${input.verifiedHash},
          ${input.upgradedHash},
          ${input.now},
          ${session.id},
          ${session.aal},
          ${json(sql, session.amr)},
          ${input.refreshTokenHash},
          ${json(sql, payload)},
          ${input.ipAddress ?? ""}
        ) u
      `;
      return row ? withFactors(row) : null;
    },

    async revokeAllForUser(userId, at) {
      if (!isUuid(userId)) return 0;
      // The sessions stay (a refresh answers that the user is banned) but end for the clients they
      // were issued to: their back-channel logouts are recorded here, as the sessions trigger records
      // those of a deleted session (migration 0031).
      await sql`
        insert into ${sql(options.namespace)}.oauth_logout_deliveries (client_id, session_id, user_id, uri)
        select s.oauth_client_id, s.id, s.user_id, c.backchannel_logout_uri
        from ${sessions} s
        join ${sql(options.namespace)}.oauth_clients c on c.id = s.oauth_client_id
        where s.user_id = ${userId}
          and c.backchannel_logout_uri is not null
        on conflict (session_id, client_id) do nothing
      `;
      const result = await sql`
        update ${tokens}
        set
          revoked = true,
          updated_at = ${at}
        where user_id = ${userId}
          and revoked = false
      `;
      return result.count;
    },
  };
}
