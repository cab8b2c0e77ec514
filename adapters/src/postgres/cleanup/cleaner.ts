import type { Sql } from "postgres";
import { isDatabaseUnavailable } from "../faults.js";
import { assertValidNamespace } from "../migrate.js";
import type { CleanupTask } from "./task.js";

/** How a cleaner works: where, how many rows a turn may take, and how long it may wait for a lock. */
export interface CleanerOptions {
  readonly namespace: string;
  /** Rows one statement picks at most (`CLEANUP_BATCH_SIZE`); cascading tasks take a share of it. */
  readonly batchSize: number;
  /**
   * Longest a turn's statement waits for a row lock (default 1 s). The statements skip locked rows,
   * so this only bounds what they cannot foresee (a cascade to a row a request holds); past it the
   * turn fails and the rows wait for the next pass.
   */
  readonly lockTimeoutMs?: number;
  /** Longest a turn's statement runs (default 10 s). */
  readonly statementTimeoutMs?: number;
}

/** A turn that failed (a lock or statement timeout, a lost connection): its task is left for the next pass. */
export interface TurnFailure {
  readonly task: string;
  readonly error: unknown;
}

/** What one pass removed, task by task. */
export interface PassReport {
  /** Rows removed by each task's statements (cascades not counted), for every task that ran. */
  readonly removed: Readonly<Record<string, number>>;
  readonly total: number;
  /** Statements run. */
  readonly turns: number;
  readonly failures: readonly TurnFailure[];
  /** Whether every task ran until a turn removed nothing (false: stopped by `until`). */
  readonly complete: boolean;
}

export interface Cleaner {
  /** Rows removed by this cleaner since it was made (the `gotrue_cleanup_affected_rows` counter). */
  readonly affectedRows: number;
  /**
   * Runs turns, one statement each, in its own short transaction: every task in order, again and
   * again for the tasks whose last turn removed rows, until none does, `until()` says stop (checked
   * before each turn), or a task's turn fails (that task is left for the next pass; all of them when
   * the database is unavailable).
   */
  pass(until?: () => boolean): Promise<PassReport>;
}

/** A cleaner running `tasks` on the pool `sql`. Several, on any number of instances, may run at once. */
export function cleaner(sql: Sql, tasks: readonly CleanupTask[], options: CleanerOptions): Cleaner {
  assertValidNamespace(options.namespace);
  const lockTimeout = String(options.lockTimeoutMs ?? 1_000);
  const statementTimeout = String(options.statementTimeoutMs ?? 10_000);
  let affectedRows = 0;

  const turn = async (task: CleanupTask, limit: number): Promise<number> => {
    const removed = await sql.begin(async (tx) => {
      // Local to the turn's transaction: a pooled connection (or PgBouncer's) keeps its own settings.
      // A turn does not wait for its commit to reach the disk: a crash may undo the last few removals,
      // which the next pass repeats, and a pass of many turns is not paced by one disk flush each.
      // Sent with the task's statement, not awaited before it: one round trip fewer per turn, which
      // under load is most of a turn (each one waits for a core). Should it fail, the transaction is
      // aborted and the statement fails with it.
      const settings = tx`
        select
          set_config('lock_timeout', ${lockTimeout}, true),
          set_config('statement_timeout', ${statementTimeout}, true),
          set_config('synchronous_commit', 'off', true)
      `.execute();
      const [, count] = await Promise.all([
        settings,
        task.run({ sql: tx, namespace: options.namespace, limit }),
      ]);
      return count;
    });
    affectedRows += removed;
    return removed;
  };

  return {
    get affectedRows() {
      return affectedRows;
    },
    async pass(until = () => false) {
      const removed: Record<string, number> = {};
      const failures: TurnFailure[] = [];
      let pending = [...tasks];
      let turns = 0;
      let total = 0;
      while (pending.length > 0) {
        const next: CleanupTask[] = [];
        for (const task of pending) {
          if (until()) return { removed, total, turns, failures, complete: false };
          const limit = task.limit?.(options.batchSize) ?? options.batchSize;
          turns++;
          try {
            const count = await turn(task, limit);
            removed[task.name] = (removed[task.name] ?? 0) + count;
            total += count;
            // Again while it finds rows, not only while it fills a batch: a batch comes back short
            // when another cleaner holds some of its rows, and that one may stop before it is done.
            if (count > 0) next.push(task);
          } catch (error) {
            failures.push({ task: task.name, error });
            // No database, no use trying the other tasks: the next pass tries again.
            if (isDatabaseUnavailable(error)) return { removed, total, turns, failures, complete: false };
          }
        }
        pending = next;
      }
      return { removed, total, turns, failures, complete: true };
    },
  };
}
