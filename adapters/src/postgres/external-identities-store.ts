import type { ExternalIdentityStore } from "@authsvc/core/external";
import { identityColumns, identityFromRow, isUuid, type Queryable } from "./rows.js";

/** `ExternalIdentityStore` over the `identities` table of `namespace` (its `email` column is generated, lowercased). */
export function postgresExternalIdentities(
  sql: Queryable,
  options: { namespace: string },
): ExternalIdentityStore {
  const table = sql`${sql(options.namespace)}.identities`;
  return {
    async findByProvider(provider, providerId) {
      const [row] =
        await sql`select * from ${table} where provider = ${provider} and provider_id = ${providerId}`;
      return row ? identityFromRow(row) : null;
    },
    async listByVerifiedEmails(emails) {
      if (emails.length === 0) return [];
      const rows = await sql`
        select * from ${table}
        where email = any(${[...emails]}::text[])
          and identity_data -> 'email_verified' = 'true'::jsonb
        order by created_at, id`;
      return rows.map(identityFromRow);
    },
    async insertUnlessKnown(identity) {
      // A conflicting row another transaction has not committed yet makes this wait for it; no row
      // then comes back, and this transaction stays usable.
      const rows = await sql`
        insert into ${table} ${sql(identityColumns(sql, identity))}
        on conflict (provider_id, provider) do nothing
        returning id
      `;
      return rows.length === 1;
    },
    async delete(id) {
      if (!isUuid(id)) return false;
      const rows = await sql`delete from ${table} where id = ${id} returning id`;
      return rows.length === 1;
    },
  };
}
