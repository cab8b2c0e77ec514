import type { UserRepository, UserWithIdentities } from "@authsvc/core/accounts";
import type { PendingQuery, Row } from "postgres";
import type { Queryable } from "./rows.js";

type List = UserRepository["list"];
type ListOptions = Parameters<List>[0];

/** `text` as a pattern of `like` that matches it as a substring: its `\`, `%` and `_` escaped. */
export function containsPattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/**
 * `UserRepository.list` over `namespace`. Its costs, on a million users:
 * - the total of an audience is the sum of its rows of `user_counts` (migration 0021), kept by
 *   triggers, instead of a count over the table;
 * - a page is found by an index-only walk of `users_aud_created_at_id_idx`, and only its rows are then
 *   read; a page in the second half is walked from the oldest end (the total says where the end is),
 *   so the last page costs what the first does (a page in the middle still walks its offset's index
 *   entries: 50,000 for page 1,000, a few milliseconds);
 * - a filter is a substring match on the email and the `full_name`, which the trigram indexes serve,
 *   and its total is counted only up to `countLimit`.
 */
export function listUsers(
  sql: Queryable,
  namespace: string,
  body: {
    /** The select-list item that gives user `u` its `identities` (accounts-store.ts). */
    identitiesOfU: PendingQuery<Row[]>;
    withIdentities: (row: Row) => UserWithIdentities;
  },
): List {
  const schema = sql(namespace);
  const users = sql`${schema}.users`;
  const { identitiesOfU, withIdentities } = body;

  /** The users of `ids` (rows with `id` and `created_at`, in any order), newest first, with identities. */
  const pageOf = async (ids: PendingQuery<Row[]>) => {
    const rows = await sql`
      select
        u.*,
        ${identitiesOfU}
      from (${ids}) p
      join ${users} u on u.id = p.id
      order by p.created_at desc, p.id desc
    `;
    return rows.map(withIdentities);
  };

  async function totalOf(aud: string | undefined): Promise<number> {
    // '' shares its counter rows with the users without an audience: counted instead.
    if (aud === "") {
      const [row] = await sql`select count(*)::bigint as total from ${users} where aud = ''`;
      return Number(row?.total ?? 0);
    }
    const [row] = await sql`
      select coalesce(sum(users), 0)::bigint as total
      from ${schema}.user_counts
      ${aud === undefined ? sql`` : sql`where aud = ${aud}`}
    `;
    return Number(row?.total ?? 0);
  }

  async function unfiltered({ offset, limit, aud }: ListOptions) {
    const total = await totalOf(aud);
    const end = Math.min(total, offset + limit);
    if (end <= offset) return { users: [], total };
    const audience = aud === undefined ? sql`` : sql`where aud = ${aud}`;
    const fromNewest = offset <= total - end;
    const ids = fromNewest
      ? sql`
          select id, created_at from ${users} ${audience}
          order by created_at desc, id desc
          limit ${end - offset} offset ${offset}
        `
      : sql`
          select id, created_at from ${users} ${audience}
          order by created_at, id
          limit ${end - offset} offset ${total - end}
        `;
    return { users: await pageOf(ids), total };
  }

  async function filtered({ offset, limit, aud, filter = "", countLimit }: ListOptions) {
    const pattern = containsPattern(filter);
    const matching = sql`
      ${aud === undefined ? sql`` : sql`aud = ${aud} and`}
      (email ilike ${pattern} or (raw_user_meta_data ->> 'full_name') ilike ${pattern})
    `;
    const cap = countLimit ?? null;
    const upToCap = sql`select id, created_at from ${users} where ${matching} limit ${cap}`;
    // One walk of the trigram indexes gives the matches up to the cap, their number and, unless the
    // cap cut them short, the page: a selective filter costs one index scan, not two.
    const rows = await sql`
      select
        u.*,
        ${identitiesOfU},
        f.total
      from (
        select id, created_at, count(*) over () as total
        from (${upToCap}) m
        order by created_at desc, id desc
        limit ${limit} offset ${offset}
      ) f
      join ${users} u on u.id = f.id
      order by f.created_at desc, f.id desc
    `;
    const first = rows[0];
    // An empty page carries no count (past the end, past the cap, or limit 0).
    const [count] = first ? [first] : await sql`select count(*)::bigint as total from (${upToCap}) m`;
    const total = Number(count?.total ?? 0);
    if (cap === null || total < cap || limit === 0) return { users: rows.map(withIdentities), total };
    // More matches than the cap: those counted are not all, so the page is taken from every match.
    const page = await pageOf(sql`
      select id, created_at from ${users} where ${matching}
      order by created_at desc, id desc
      limit ${limit} offset ${offset}
    `);
    return { users: page, total };
  }

  return (options) => (options.filter ? filtered(options) : unfiltered(options));
}

type ListAfter = UserRepository["listAfter"];

/**
 * `UserRepository.listAfter` over `namespace`: the reference's keyset query. The row comparison
 * `(created_at, id) < (…)` is what lets Postgres seek `users_aud_created_at_id_idx` straight to the
 * position and walk `limit + 1` entries from there (the `or` form would scan and filter), so a page
 * costs the same at any depth of a million users. The position keeps `created_at` to the microsecond
 * (a `Date` would round it to the millisecond and skip users created within one): it is sent as text,
 * since postgres.js turns a parameter it sees typed `timestamptz` into a `Date`.
 */
export function listUsersAfter(
  sql: Queryable,
  namespace: string,
  body: { identitiesOfU: PendingQuery<Row[]>; withIdentities: (row: Row) => UserWithIdentities },
): ListAfter {
  const users = sql`${sql(namespace)}.users`;
  return async ({ limit, after, aud, filter }) => {
    const conditions = [
      ...(aud === undefined ? [] : [sql`aud = ${aud}`]),
      ...(filter
        ? [
            sql`(email ilike ${containsPattern(filter)} or (raw_user_meta_data ->> 'full_name') ilike ${containsPattern(filter)})`,
          ]
        : []),
      ...(after === null
        ? []
        : [sql`(created_at, id) < (${after.createdAt}::text::timestamptz, ${after.id}::uuid)`]),
    ];
    const where = conditions.reduce(
      (clause, condition, i) => (i === 0 ? sql`where ${condition}` : sql`${clause} and ${condition}`),
      sql``,
    );
    const rows = await sql`
      select
        u.*,
        ${body.identitiesOfU},
        to_char(u.created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') as list_position
      from (
        select id from ${users} ${where}
        order by created_at desc, id desc
        limit ${limit + 1}
      ) p
      join ${users} u on u.id = p.id
      order by u.created_at desc, u.id desc
    `;
    const page = rows.slice(0, limit);
    const last = page.at(-1);
    return {
      users: page.map(body.withIdentities),
      next:
        rows.length > limit && last ? { createdAt: String(last.list_position), id: String(last.id) } : null,
    };
  };
}
