import type { TransactionSql } from "postgres";

/** What one turn of a task runs against: the turn's transaction, the schema, and how many rows it may take. */
export interface CleanupTurn {
  readonly sql: TransactionSql;
  /** The schema the migrations created (`DB_NAMESPACE`). */
  readonly namespace: string;
  /** Most rows the turn's statement picks (the task's share of `CLEANUP_BATCH_SIZE`). */
  readonly limit: number;
}

/**
 * One kind of stale row and the one statement that removes a batch of it. The statement picks its
 * rows with `for update skip locked`, so it never waits for a row a request (or another instance's
 * cleaner) holds, and two cleaners never pick the same row; it resolves to the rows it removed.
 */
export interface CleanupTask {
  /** What it removes, as logs and reports name it (e.g. `refresh_tokens`). */
  readonly name: string;
  /**
   * Its share of the configured batch size: rows whose removal cascades to many others (a session's
   * tokens, a user's everything) are taken fewer at a time. Default: the batch size itself.
   */
  readonly limit?: (batchSize: number) => number;
  run(turn: CleanupTurn): Promise<number>;
}

/** A tenth of the batch, at least one: for users, whose removal cascades to everything theirs. */
export const cascadingShare = (batchSize: number): number => Math.max(1, Math.floor(batchSize / 10));

/**
 * A quarter of the batch, at least one: for sessions, whose removal cascades to their tokens (about
 * 25 each with the defaults: a day of hourly refreshes). A tenth removed ten a turn, fewer than a
 * sustained 70 sign-ins a second end (the soak) in the turns a loaded database gives a pass.
 */
export const sessionShare = (batchSize: number): number => Math.max(1, Math.floor(batchSize / 4));

/** `seconds` as a SQL interval parameter. */
export const secondsAgo = (sql: TransactionSql, seconds: number) =>
  sql`now() - ${seconds}::float8 * interval '1 second'`;

/** Seconds in a day: how long the reference keeps what ended before removing it. */
export const DAY_SECONDS = 24 * 60 * 60;
