/**
 * A population of users for the bench and the plan test: `count` users, each with an email identity
 * (and its snapshot), one session and a chain of `tokensPerSession` refresh tokens of which only the
 * last is live, as after weeks of hourly refreshes. Written server-side in set-wise batches (one
 * `insert … select generate_series` per table and batch, no row sent over the wire), each batch one
 * transaction ending with `user_snapshots_flush()`, then `vacuum analyze`: a million users with ten
 * million tokens in minutes.
 *
 * Users are `population-<n>@example.com` (n from 1), created over the year before now, newest last;
 * the refresh tokens' hashes are `sha256(<session id>:<k>)` (hex), k = 1…tokensPerSession, so a
 * caller can compute any of them. With a superuser, the session and token rows are written with the
 * foreign-key triggers off (`session_replication_role = replica`): they reference rows of the same
 * batch by construction, and checking 30 million references would be most of the time.
 */
import postgres from "postgres";

export interface PopulationOptions {
  /** Users to add (0: nothing). */
  count: number;
  namespace?: string;
  /** Refresh tokens per session (default 10). */
  tokensPerSession?: number;
  /**
   * Also a pending confirmation token per user (`one_time_tokens`, hash `sha256('ott:' || user id)`
   * hex), as if every user had asked for one (default false).
   */
  oneTimeTokens?: boolean;
  /** Users a transaction (default 50,000). */
  batch?: number;
  log?: (line: string) => void;
}

export interface PopulationReport {
  users: number;
  refreshTokens: number;
  seconds: number;
  usersPerSecond: number;
}

export async function populate(url: string, options: PopulationOptions): Promise<PopulationReport> {
  const { count, namespace = "auth", tokensPerSession = 10, batch = 50_000, log } = options;
  const oneTimeTokens = options.oneTimeTokens ?? false;
  const began = performance.now();
  if (count <= 0) return { users: 0, refreshTokens: 0, seconds: 0, usersPerSecond: 0 };
  const sql = postgres(url, { max: 1, onnotice: () => {} });
  try {
    const t = (table: string) => sql`${sql(namespace)}.${sql(table)}`;
    const [{ superuser } = { superuser: false }] = await sql<{ superuser: boolean }[]>`
      select rolsuper as superuser from pg_roles where rolname = current_user
    `;
    const [{ first } = { first: 1 }] = await sql<{ first: number }[]>`
      select (coalesce(max(id), 0) + 1)::bigint as first from ${t("refresh_tokens")}
    `;
    const firstToken = Number(first);
    // The token indexes that back no constraint are built once at the end: one sort of ten million
    // entries instead of ten million random insertions into each (the same definitions, read first).
    const deferred = await sql<{ name: string; definition: string }[]>`
      select i.indexname as name, i.indexdef as definition
      from pg_indexes i
      where i.schemaname = ${namespace}
        and i.tablename = 'refresh_tokens'
        and not exists (
          select 1 from pg_constraint c
          where c.conname = i.indexname and c.connamespace = ${namespace}::regnamespace
        )
    `;
    for (const index of deferred) await sql`drop index ${sql(namespace)}.${sql(index.name)}`;
    try {
      for (let from = 1; from <= count; from += batch) {
        const to = Math.min(count, from + batch - 1);
        await sql.begin(async (tx) => {
          await tx`
          insert into ${t("users")} (id, aud, role, email, email_confirmed_at, raw_app_meta_data,
            raw_user_meta_data, created_at, updated_at)
          select gen_random_uuid(), 'authenticated', 'authenticated', 'population-' || g || '@example.com',
            stamp, '{"provider":"email","providers":["email"]}', '{}', stamp, stamp
          from generate_series(${from}::int, ${to}::int) g,
            lateral (select now() - interval '365 days' * (1 - g::float8 / ${count}) as stamp) s
        `;
          await tx`
          insert into ${t("identities")} (provider_id, user_id, identity_data, provider, created_at, updated_at)
          select u.id::text, u.id, jsonb_build_object('sub', u.id, 'email', u.email), 'email',
            u.created_at, u.created_at
          from ${t("users")} u
          where u.xmin = pg_current_xact_id()::xid
        `;
          await tx`select ${sql(namespace)}.user_snapshots_flush()`;
          if (oneTimeTokens) {
            await tx`
              insert into ${t("one_time_tokens")} (user_id, token_type, token_hash, relates_to)
              select u.id, 'confirmation_token', encode(sha256(convert_to('ott:' || u.id, 'UTF8')), 'hex'), u.email
              from ${t("users")} u
              where u.xmin = pg_current_xact_id()::xid
            `;
          }
          if (superuser) await tx`set local session_replication_role = replica`;
          await tx`
          insert into ${t("sessions")} (user_id, created_at, updated_at, aal, refreshed_at)
          select u.id, u.created_at, now() - interval '1 hour', 'aal1', now() - interval '1 hour'
          from ${t("users")} u
          where u.xmin = pg_current_xact_id()::xid
        `;
          // Token k of the n-th session of the batch: id first + (from - 1 + n - 1) * per + k - 1, its
          // parent the token before it; all but the last revoked.
          await tx`
          insert into ${t("refresh_tokens")} (id, token_hash, user_id, session_id, parent_id, revoked,
            created_at, updated_at)
          select
            base + k - 1,
            encode(sha256(convert_to(s.id::text || ':' || k, 'UTF8')), 'hex'),
            s.user_id,
            s.id,
            case when k > 1 then base + k - 2 end,
            k < ${tokensPerSession},
            now() - interval '1 hour' * (${tokensPerSession} - k + 1),
            now() - interval '1 hour' * (${tokensPerSession} - k)
          from (
            select id, user_id,
              ${firstToken}::bigint + (${from - 1}::bigint + row_number() over (order by id) - 1) * ${tokensPerSession} as base
            from ${t("sessions")}
            where xmin = pg_current_xact_id()::xid
          ) s
          cross join generate_series(1, ${tokensPerSession}) k
          -- In the order of the unique index on the hashes: its pages are written in turn.
          order by 2
        `;
        });
        log?.(`population: ${to} of ${count} users (${((performance.now() - began) / 1000).toFixed(0)} s)`);
      }
    } finally {
      for (const index of deferred) await sql.unsafe(index.definition);
    }
    // Tokens issued from now on take ids after the population's.
    await sql`
      select setval(pg_get_serial_sequence(${`${namespace}.refresh_tokens`}, 'id'),
        (select max(id) from ${t("refresh_tokens")}))
    `;
    // The namespace's tables only: a shared test database holds other namespaces.
    const tables = await sql<{ name: string }[]>`
      select tablename as name from pg_tables where schemaname = ${namespace}
    `;
    for (const { name } of tables) await sql`vacuum analyze ${sql(namespace)}.${sql(name)}`;
    const seconds = (performance.now() - began) / 1000;
    log?.(
      `population: ${count} users, ${count * tokensPerSession} refresh tokens in ${seconds.toFixed(0)} s`,
    );
    return {
      users: count,
      refreshTokens: count * tokensPerSession,
      seconds,
      usersPerSecond: count / seconds,
    };
  } finally {
    await sql.end();
  }
}
