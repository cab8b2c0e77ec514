import type { PendingQuery, Row, TransactionSql } from "postgres";
import type { Sql } from "../postgres/connect.js";
import { EARLIEST_TIME, LATEST_TIME } from "../postgres/timestamps.js";

/** What one run of the import is given: both databases and the rules authsvc stores secrets by. */
export interface ImportContext {
  /** The reference's database, only read. */
  readonly source: Sql;
  /** The schema the reference's migrations made there (`auth` unless GOTRUE_DB_NAMESPACE said otherwise). */
  readonly sourceSchema: string;
  /** authsvc's database, migrated. */
  readonly target: Sql;
  /** authsvc's schema (`AUTHSVC_DB_NAMESPACE`). */
  readonly namespace: string;
  /** authsvc's hash of a refresh token (the `SecretTokens` port's `hash`): the only form it stores. */
  readonly hashToken: (token: string) => string;
  /** Seals a TOTP secret as authsvc stores it (the `SecretBox` port, keyed by the factor's id). */
  readonly seal: (rowId: string, plaintext: string) => string;
  /** Opens a value the reference stored: its plaintext, or null when it is encrypted with a key not given. */
  readonly openReferenceSecret: (rowId: string, stored: string) => string | null;
}

/** The outcome of one batch, or of a table once its batches are added up. */
export interface CopyCounts {
  /** Rows read from the reference. */
  read: number;
  /** Rows written for the first time. */
  inserted: number;
  /** Rows written again because the reference's copy was newer than authsvc's. */
  updated: number;
  /** Rows read but not written: already there and not newer, or left out by a rule (see the step). */
  unchanged: number;
  /** Rows the target refused (a constraint), each named in `rejections`. */
  rejected: number;
}

/** A row the target refused: which, and the constraint; never a value of the row. */
export interface Rejection {
  readonly table: string;
  readonly id: string;
  readonly reason: string;
}

/** One table of the reference copied in batches ordered by `id`, so that a run can stop anywhere. */
export interface ImportStep {
  /** The name in the progress line and the summary. */
  readonly name: string;
  /** Rows of the reference this step will read (for the progress line). */
  count(ctx: ImportContext): Promise<number>;
  /** Up to `limit` rows with an id after `after` (null: from the start), in id order, as JSON objects. */
  read(ctx: ImportContext, after: string | null, limit: number): Promise<SourceRow[]>;
  /**
   * The row this step's rows belong to (a user, a session), by the column that names it: a row whose
   * owner is not in the target (it was refused) is not written, and is named among the rejections.
   */
  readonly owner?: { readonly column: string; readonly table: string; readonly what: string };
  /**
   * The column naming the user whose snapshot (migration 0013) a row feeds (users: `id`; identities and
   * factors: `user_id`). Each batch then ends with one set-wise rewrite of its users' snapshots
   * (`user_snapshots_flush_users`) instead of one trigger call per row at commit.
   */
  readonly snapshotOf?: string;
  /**
   * Why a row read is not to be written (null: it is): a rule of this step, checked before the
   * write; the row is named among the rejections, as a row the target refuses.
   */
  refuse?(row: SourceRow): string | null;
  /** Rows of the reference this step does not read by rule, and why (none when absent). */
  leftOut?(ctx: ImportContext): Promise<{ readonly count: number; readonly why: string }>;
  /** Writes one batch in the given transaction; the row fallback calls it with one row at a time. */
  write(tx: TransactionSql, ctx: ImportContext, rows: readonly SourceRow[]): Promise<WriteCounts>;
}

/** A row as the reference's `json_agg` renders it (timestamps keep their microseconds). */
export type SourceRow = { readonly id: string | number } & Readonly<Record<string, unknown>>;

export interface WriteCounts {
  readonly inserted: number;
  readonly updated: number;
}

/** A fault that stops the run with a plain sentence (bad source, a secret without its key). */
export class ImportFailure extends Error {
  override readonly name = "ImportFailure";
}

/**
 * The rows `select` finds, as JSON objects: one text from the reference, so that timestamps keep
 * their microseconds (a JavaScript Date would cut them, and a second run would then see every row
 * as newer than its copy).
 */
export async function readRows(ctx: ImportContext, select: PendingQuery<Row[]>): Promise<SourceRow[]> {
  const [row] = await ctx.source<{ rows: string }[]>`
    select coalesce(json_agg(x), '[]')::text as rows from (${select}) x
  `;
  return JSON.parse(row?.rows ?? "[]") as SourceRow[];
}

/** `id > after` when resuming after a batch; the start otherwise. */
export const afterId = (ctx: ImportContext, column: string, after: string | null, type: "uuid" | "bigint") =>
  after === null
    ? ctx.source`true`
    : type === "uuid"
      ? ctx.source`${ctx.source(column)} > ${after}::uuid`
      : ctx.source`${ctx.source(column)} > ${after}::bigint`;

/** `schema.table` of the reference, quoted. */
export const sourceTable = (ctx: ImportContext, table: string) => ctx.source(`${ctx.sourceSchema}.${table}`);

/** `namespace.table` of authsvc, quoted. */
export const targetTable = (tx: Sql | TransactionSql, ctx: ImportContext, table: string) =>
  tx(`${ctx.namespace}.${table}`);

/** The `(xmax = 0)` flags an upsert's `returning` gives, counted. */
export function countWrites(rows: readonly { inserted: boolean }[]): WriteCounts {
  const inserted = rows.filter((r) => r.inserted).length;
  return { inserted, updated: rows.length - inserted };
}

/**
 * A timestamp of the reference (a fragment) within 0001-01-01 … 9999-12-31, the range a JavaScript
 * Date and RFC 3339 hold, as the readers clamp it (postgres/timestamps.ts): PostgreSQL's `infinity`,
 * `-infinity`, year 294276 or a date BC become the nearest end (a ban until `infinity` stays a ban
 * until the last representable moment); null stays null.
 */
export const clampedTime = (ctx: ImportContext, time: PendingQuery<Row[]>) => {
  const s = ctx.source;
  const latest = s`${LATEST_TIME}::timestamptz`;
  const earliest = s`${EARLIEST_TIME}::timestamptz`;
  return s`case
    when ${time} > ${latest} then ${latest}
    when ${time} < ${earliest} then ${earliest}
    else ${time}
  end`;
};

/** `a = excluded.a, b = excluded.b, …` for every column but `id` (the names are this module's constants). */
export const updateAll = (tx: TransactionSql, columns: readonly string[]) =>
  tx.unsafe(
    columns
      .filter((c) => c !== "id")
      .map((c) => `"${c}" = excluded."${c}"`)
      .join(", "),
  );

/** Rows of the reference's `table` matching `where` (a fragment), for the progress line. */
export async function countRows(
  ctx: ImportContext,
  table: string,
  where?: PendingQuery<Row[]>,
): Promise<number> {
  const [row] = await ctx.source<{ n: string }[]>`
    select count(*) as n from ${sourceTable(ctx, table)} x where ${where ?? ctx.source`true`}
  `;
  return Number(row?.n ?? 0);
}

/**
 * The reference's row (`excluded`) changed after authsvc's (`t`). Compared to the millisecond:
 * authsvc writes its timestamps from JavaScript dates, so a row it wrote back unchanged has lost the
 * microseconds the reference's copy still has, and would otherwise look older than it is.
 */
export const sourceIsNewer = (tx: TransactionSql) =>
  tx`date_trunc('milliseconds', t.updated_at) < date_trunc('milliseconds', excluded.updated_at)`;
