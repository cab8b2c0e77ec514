import type { CodeChallengeMethod, FlowState, FlowStateStore } from "@authsvc/core/pkce";
import type { Row } from "postgres";
import { isUuid, type Queryable } from "./rows.js";

/** A `flow_state` row as a domain flow state (`auth_code` holds the code's hash only). */
function flowStateFromRow(row: Row): FlowState {
  return {
    id: row.id,
    userId: row.user_id,
    authCodeHash: row.auth_code,
    codeChallenge: row.code_challenge,
    codeChallengeMethod: row.code_challenge_method as CodeChallengeMethod | null,
    providerType: row.provider_type,
    providerAccessToken: row.provider_access_token,
    providerRefreshToken: row.provider_refresh_token,
    authenticationMethod: row.authentication_method,
    authCodeIssuedAt: row.auth_code_issued_at,
    referrer: row.referrer,
    linkingTargetId: row.linking_target_id,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

/**
 * `FlowStateStore` over the `flow_state` table of `namespace`. Single use is a `delete … returning`
 * (consume) or a delete after `for update` (the code exchange): a second caller waits for the first's
 * row lock, then finds the row gone.
 */
export function postgresFlowStateStore(sql: Queryable, options: { namespace: string }): FlowStateStore {
  const table = sql`${sql(options.namespace)}.flow_state`;
  return {
    async create(s) {
      await sql`
        insert into ${table} (
          id,
          user_id,
          auth_code,
          code_challenge_method,
          code_challenge,
          provider_type,
          provider_access_token,
          provider_refresh_token,
          authentication_method,
          auth_code_issued_at,
          referrer,
          linking_target_id,
          created_at,
          updated_at
        ) values (
          ${s.id},
          ${s.userId},
          ${s.authCodeHash},
          ${s.codeChallengeMethod}::text::${sql(options.namespace)}.code_challenge_method,
          ${s.codeChallenge},
          ${s.providerType},
          ${s.providerAccessToken},
          ${s.providerRefreshToken},
          ${s.authenticationMethod},
          ${s.authCodeIssuedAt},
          ${s.referrer},
          ${s.linkingTargetId},
          ${s.createdAt},
          ${s.updatedAt}
        )`;
    },

    async consume(id) {
      if (!isUuid(id)) return null;
      const [row] = await sql`delete from ${table} where id = ${id} returning *`;
      return row ? flowStateFromRow(row) : null;
    },

    async issueCode(userId, method, authCodeHash, now) {
      if (!isUuid(userId)) return null;
      const [row] = await sql`
        update ${table}
        set
          auth_code = ${authCodeHash},
          auth_code_issued_at = ${now},
          updated_at = ${now}
        where id = (
          select id from ${table}
          where user_id = ${userId}
            and authentication_method = ${method}
            and code_challenge is not null
          order by created_at desc, id
          limit 1
        )
        returning *`;
      return row ? flowStateFromRow(row) : null;
    },

    async lockByCode(authCodeHash) {
      const [row] = await sql`select * from ${table} where auth_code = ${authCodeHash} for update`;
      return row ? flowStateFromRow(row) : null;
    },

    async delete(id) {
      if (!isUuid(id)) return false;
      const rows = await sql`delete from ${table} where id = ${id} returning id`;
      return rows.length === 1;
    },

    async deleteForUser(userId) {
      if (!isUuid(userId)) return 0;
      const rows = await sql`
        delete from ${table}
        where user_id = ${userId}
          or linking_target_id = ${userId}
        returning id`;
      return rows.length;
    },
  };
}
