import type { Repositories } from "@authsvc/core";
import {
  AUDIT_LOG_TYPES,
  type AuditLog,
  type AuditSearchField,
  auditPayload,
  type IdentityRepository,
  type User,
  type UserRepository,
  type UserWithIdentities,
} from "@authsvc/core/accounts";
import type { PendingQuery, Row, TransactionSql } from "postgres";
import {
  factorFromRow,
  identityColumns,
  identityFromRow,
  isUuid,
  json,
  type Queryable,
  userColumns,
  userFromRow,
} from "./rows.js";
import { listUsers, listUsersAfter } from "./user-list.js";

/** The accounts slice's repositories (users, identities, audit log) on `sql`; factors come from mfa-store.ts. */
export function postgresAccountsRepositories(
  sql: Queryable,
  options: RepositoryOptions,
): Pick<Repositories, "users" | "identities" | "audit"> {
  return {
    users: postgresUserRepository(sql, options),
    identities: postgresIdentityRepository(sql, options),
    audit: postgresAuditLog(sql, options),
  };
}

export interface RepositoryOptions {
  namespace: string;
  /** The `sql.begin` transaction the repository is bound to (the same object as `sql`), if any. */
  transaction?: TransactionSql | undefined;
}

type Duplicate = "duplicate_id" | "duplicate_email" | "duplicate_phone";

/** The unique keys of `users` (0001_initial) and what a violation of each means to the caller. */
const DUPLICATE_BY_CONSTRAINT: Readonly<Record<string, Duplicate>> = {
  users_pkey: "duplicate_id",
  users_email_partial_key: "duplicate_email",
  users_phone_key: "duplicate_phone",
};

function duplicateOf(error: unknown): Duplicate | null {
  const e = error as { code?: unknown; constraint_name?: unknown };
  if (e?.code !== "23505" || typeof e.constraint_name !== "string") return null;
  return DUPLICATE_BY_CONSTRAINT[e.constraint_name] ?? null;
}

/**
 * Runs one insert/update and reports a violated unique key of `users` instead of throwing.
 *
 * Inside a transaction a failed statement aborts it (and postgres.js rethrows the failure when the
 * callback ends, even if caught), so the statement runs in a savepoint: a duplicate then costs only the
 * savepoint, and whatever the caller wrote before it still commits.
 */
async function reportingDuplicates(
  sql: Queryable,
  transaction: TransactionSql | undefined,
  statement: (sql: Queryable) => PendingQuery<Row[]>,
): Promise<{ count: number } | Duplicate> {
  try {
    return transaction
      ? await transaction.savepoint((savepoint) => statement(savepoint))
      : await statement(sql);
  } catch (error) {
    const duplicate = duplicateOf(error);
    if (duplicate) return duplicate;
    throw error;
  }
}

/** A `users` row with its `identities` json array (see `identitiesOfU`). */
export function withIdentities(row: Row): UserWithIdentities {
  const identities = Array.isArray(row.identities) ? row.identities.map(identityFromRow) : [];
  // Object.assign onto the fresh object rather than `{ ...user, identities }`: V8 (Node 20) promotes the
  // objects a spread followed by further properties makes to the old generation (user-snapshot.ts).
  return Object.assign(userFromRow(row), { identities });
}

/** A `users` row with its `identities` and `factors` json arrays: the user body of GET /user. */
export function withFactors(row: Row): UserWithIdentities {
  const factors = Array.isArray(row.factors) ? row.factors.map(factorFromRow) : [];
  return Object.assign(withIdentities(row), { factors });
}

/** The identities of user `u`, oldest first, as one json array `identities`: a user body in one round trip. */
export const identitiesOf = (sql: Queryable, namespace: string) => sql`
  coalesce(
    (
      select
        json_agg(i order by i.created_at, i.id)
      from ${sql(namespace)}.identities i
      where i.user_id = u.id
    ),
    '[]'::json
  ) as identities
`;

/** The MFA factors of user `u`, oldest first, as one json array `factors` (GET /user carries them). */
export const factorsOf = (sql: Queryable, namespace: string) => sql`
  coalesce(
    (
      select
        json_agg(f order by f.created_at, f.id)
      from ${sql(namespace)}.mfa_factors f
      where f.user_id = u.id
    ),
    '[]'::json
  ) as factors
`;

/** `UserRepository` over the `users` table of `namespace`. */
export function postgresUserRepository(sql: Queryable, options: RepositoryOptions): UserRepository {
  const users = sql`${sql(options.namespace)}.users`;
  const identitiesOfU = identitiesOf(sql, options.namespace);
  const factorsOfU = factorsOf(sql, options.namespace);

  /** Which unique key of `users` a user that could not be inserted shares with a stored one. */
  async function clashOf(user: User): Promise<Duplicate | null> {
    const [row] = await sql`
      select
        exists (select 1 from ${users} where id = ${user.id}) as id,
        exists (select 1 from ${users} where email = ${user.email} and is_sso_user = false) as email,
        exists (select 1 from ${users} where phone = ${user.phone}) as phone
    `;
    if (row?.id) return "duplicate_id";
    if (row?.email) return "duplicate_email";
    if (row?.phone) return "duplicate_phone";
    return null;
  }

  async function one(query: PendingQuery<Row[]>): Promise<User | null> {
    const [row] = await query;
    return row ? userFromRow(row) : null;
  }

  return {
    findById: async (id) => (isUuid(id) ? one(sql`select * from ${users} where id = ${id}`) : null),

    async findWithIdentities(id) {
      if (!isUuid(id)) return null;
      const [row] = await sql`
        select
          u.*,
          ${identitiesOfU},
          ${factorsOfU}
        from ${users} u
        where u.id = ${id}
      `;
      return row ? withFactors(row) : null;
    },

    findByEmail: (email) =>
      one(sql`
        select * from ${users}
        where email = ${email.toLowerCase()}
          and is_sso_user = false
      `),

    findByPhone: (phone) => one(sql`select * from ${users} where phone = ${phone}`),

    lock: async (id) => (isUuid(id) ? one(sql`select * from ${users} where id = ${id} for update`) : null),

    async insert(user) {
      // `is_sso_user` is written once, here: it decides which unique email index the row is under.
      const row = (q: Queryable) => ({
        id: user.id,
        ...userColumns(q, user),
        is_sso_user: user.isSsoUser === true,
      });
      const insert = (q: Queryable) => q`insert into ${users} ${q(row(q))}`;
      if (options.transaction) {
        // Inside a transaction, first without the savepoint (three round trips where this is one): a
        // clash skips the row instead of aborting the transaction, and is then named by a lookup.
        const result = await sql`${insert(sql)} on conflict do nothing`;
        if (result.count === 1) return "inserted";
        const clash = await clashOf(user);
        if (clash !== null) return clash;
        // A clash on another unique index, or with a row gone meanwhile: as without the shortcut.
      }
      const outcome = await reportingDuplicates(sql, options.transaction, insert);
      return typeof outcome === "string" ? outcome : "inserted";
    },

    async update(user) {
      if (!isUuid(user.id)) return "not_found";
      const outcome = await reportingDuplicates(
        sql,
        options.transaction,
        (q) => q`update ${users} set ${q(userColumns(q, user))} where id = ${user.id}`,
      );
      // An update never inserts a row, so the primary key cannot clash.
      if (outcome === "duplicate_id") throw new Error("update reported a duplicate primary key");
      if (typeof outcome === "string") return outcome;
      return outcome.count === 0 ? "not_found" : "updated";
    },

    async delete(id) {
      if (!isUuid(id)) return false;
      const result = await sql`delete from ${users} where id = ${id}`;
      return result.count > 0;
    },

    list: listUsers(sql, options.namespace, { identitiesOfU, withIdentities }),
    listAfter: listUsersAfter(sql, options.namespace, { identitiesOfU, withIdentities }),
  };
}

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

    async deleteExternal(userId) {
      if (!isUuid(userId)) return 0;
      const result = await sql`
        delete from ${identities}
        where user_id = ${userId}
          and provider not in ('email', 'phone')
      `;
      return result.count;
    },
  };
}

/** Where the payload comes from: core, so that every AuditLog writes (and searches) the same one. */
export { AUDIT_LOG_TYPES, auditPayload };

/** `%`, `_` and `\\` taken literally in a `like` pattern. */
const likeLiteral = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);

/** `AuditLog` appending to the `audit_log_entries` table of `namespace`. */
export function postgresAuditLog(sql: Queryable, options: { namespace: string }): AuditLog {
  const entries = sql`${sql(options.namespace)}.audit_log_entries`;
  return {
    async record(entry) {
      await sql`
        insert into ${entries} ${sql({
          payload: json(sql, auditPayload(entry)),
          created_at: entry.at,
          ip_address: entry.ipAddress ?? "",
        })}
      `;
    },

    async list({ offset, limit, search }) {
      const where = search === undefined ? sql`` : sql`where (${matching(search.fields, search.text)})`;
      const rows = await sql`
        select
          *,
          count(*) over () as total
        from ${entries}
        ${where}
        order by created_at desc, id desc
        limit ${limit}
        offset ${offset}
      `;
      const total =
        rows[0] !== undefined
          ? Number(rows[0].total)
          : Number((await sql`select count(*)::int as total from ${entries} ${where}`)[0]?.total ?? 0);
      return {
        entries: rows.map((row) => ({
          id: row.id,
          payload: (row.payload ?? {}) as Record<string, unknown>,
          createdAt: row.created_at,
          ipAddress: row.ip_address,
        })),
        total,
      };
    },
  };

  /** `payload->>'<field>' ilike '%text%'` for any of `fields` (names from a fixed list, never the request). */
  function matching(fields: readonly AuditSearchField[], text: string) {
    const pattern = `%${likeLiteral(text)}%`;
    return fields
      .map((field) => sql`(payload ->> ${field}::text) ilike ${pattern}`)
      .reduce((all, one) => sql`${all} or ${one}`);
  }
}
