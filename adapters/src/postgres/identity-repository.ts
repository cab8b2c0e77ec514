import type { IdentityRepository } from "@authsvc/core";
import { identityColumns, identityFromRow, isUuid, type Queryable } from "./rows.js";

/** `IdentityRepository` over the `identities` table of `namespace`. */
export function postgresIdentityRepository(
  sql: Queryable,
  options: { namespace: string },
): IdentityRepository {
  const identities = sql`${sql(options.namespace)}.identities`;
  return {
    async insert(identity) {
      await sql`insert into ${identities} ${sql(identityColumns(sql, identity))}`;
    },

    async update(identity) {
      if (!isUuid(identity.id)) return;
      const { id: _, ...columns } = identityColumns(sql, identity);
      await sql`update ${identities} set ${sql(columns)} where id = ${identity.id}`;
    },

    async listByUser(userId) {
      if (!isUuid(userId)) return [];
      const rows = await sql`
        select * from ${identities}
        where user_id = ${userId}
        order by created_at, id
      `;
      return rows.map(identityFromRow);
    },
  };
}
