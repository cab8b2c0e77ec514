import type { TransactionSql } from "postgres";
import type { CopyCounts, ImportContext, ImportStep, Rejection, SourceRow, WriteCounts } from "./step.js";

/** Where a step stands, for the progress line. */
export interface StepProgress {
  readonly step: string;
  readonly done: number;
  readonly total: number;
}

export interface RunStepOptions {
  readonly batchSize: number;
  readonly onProgress?: (progress: StepProgress) => void;
}

/**
 * Copies one table batch by batch, each batch in a transaction of its own: a run stopped anywhere
 * leaves whole batches behind, and the next run reads them again and finds them there (every write
 * is keyed by the reference's id), so resuming is running again.
 */
export async function runStep(
  ctx: ImportContext,
  step: ImportStep,
  options: RunStepOptions,
): Promise<{ counts: CopyCounts; rejections: Rejection[] }> {
  const counts: CopyCounts = { read: 0, inserted: 0, updated: 0, unchanged: 0, rejected: 0 };
  const rejections: Rejection[] = [];
  const total = await step.count(ctx);
  options.onProgress?.({ step: step.name, done: 0, total });
  let after: string | null = null;
  for (;;) {
    const rows = await step.read(ctx, after, options.batchSize);
    if (rows.length === 0) break;
    const written = await ctx.target.begin(async (tx) => {
      const counts = await writeBatch(tx, ctx, step, rows, rejections);
      // A batch that wrote nothing (a second run) queued no snapshot write.
      if (counts.inserted + counts.updated > 0) await flushSnapshots(tx, ctx, step, rows);
      return counts;
    });
    counts.read += rows.length;
    counts.inserted += written.inserted;
    counts.updated += written.updated;
    counts.rejected += written.rejected;
    counts.unchanged += rows.length - written.inserted - written.updated - written.rejected;
    after = String((rows[rows.length - 1] as SourceRow).id);
    options.onProgress?.({ step: step.name, done: counts.read, total: Math.max(total, counts.read) });
    if (rows.length < options.batchSize) break;
  }
  return { counts, rejections };
}

// 23xxx: integrity constraint violations (unique, foreign key, check, not null).
const isConstraintViolation = (error: unknown) =>
  typeof (error as { code?: unknown }).code === "string" && (error as { code: string }).code.startsWith("23");

/**
 * The batch in one statement; when the target refuses it for a constraint, row by row, each in a
 * savepoint, so that one bad row (an email two reference users share in another case, say) is named
 * and left out instead of stopping the run or its batch.
 */
async function writeBatch(
  tx: TransactionSql,
  ctx: ImportContext,
  step: ImportStep,
  rows: readonly SourceRow[],
  rejections: Rejection[],
): Promise<WriteCounts & { rejected: number }> {
  const orphans = await orphansOf(tx, ctx, step, rows);
  for (const id of orphans) {
    rejections.push({ table: step.name, id, reason: `its ${step.owner?.what} was not copied` });
  }
  const refused = refusedBy(step, rows, rejections);
  const kept = refused.size === 0 ? rows : rows.filter((row) => !refused.has(row));
  const ruledOut = orphans.length + refused.size;
  if (kept.length === 0) return { inserted: 0, updated: 0, rejected: ruledOut };
  try {
    return { ...(await tx.savepoint((sp) => step.write(sp, ctx, kept))), rejected: ruledOut };
  } catch (error) {
    if (!isConstraintViolation(error)) throw error;
  }
  let inserted = 0;
  let updated = 0;
  let rejected = ruledOut;
  for (const row of kept) {
    try {
      const written = await tx.savepoint((sp) => step.write(sp, ctx, [row]));
      inserted += written.inserted;
      updated += written.updated;
    } catch (error) {
      if (!isConstraintViolation(error)) throw error;
      rejected += 1;
      const constraint = (error as { constraint_name?: unknown }).constraint_name;
      rejections.push({
        table: step.name,
        id: String(row.id),
        reason: typeof constraint === "string" ? `violates ${constraint}` : (error as Error).message,
      });
    }
  }
  return { inserted, updated, rejected };
}

/** The rows the step's own rule refuses, each named among the rejections. */
function refusedBy(step: ImportStep, rows: readonly SourceRow[], rejections: Rejection[]): Set<SourceRow> {
  const refused = new Set<SourceRow>();
  if (!step.refuse) return refused;
  for (const row of rows) {
    const reason = step.refuse(row);
    if (reason === null) continue;
    refused.add(row);
    rejections.push({ table: step.name, id: String(row.id), reason });
  }
  return refused;
}

/**
 * The snapshots of the batch's users, rewritten set-wise at the top level of its transaction: the rows
 * written in savepoints are there; a user whose row was refused, or unchanged, costs one rewrite.
 */
async function flushSnapshots(
  tx: TransactionSql,
  ctx: ImportContext,
  step: ImportStep,
  rows: readonly SourceRow[],
): Promise<void> {
  if (!step.snapshotOf) return;
  const column = step.snapshotOf;
  const users = [...new Set(rows.map((row) => String(row[column])))].sort();
  await tx`select ${tx(ctx.namespace)}.user_snapshots_flush_users(${users}::uuid[])`;
}

/** The ids of the rows whose owner (their user, their session) is not in the target. */
async function orphansOf(
  tx: TransactionSql,
  ctx: ImportContext,
  step: ImportStep,
  rows: readonly SourceRow[],
): Promise<string[]> {
  if (!step.owner) return [];
  const owners = rows.map((row) => ({ id: String(row.id), owner: row[step.owner?.column ?? ""] }));
  const found = await tx<{ id: string }[]>`
    select x.id
    from json_to_recordset(${JSON.stringify(owners)}::text::json) as x(id text, owner uuid)
    where not exists (select 1 from ${tx(`${ctx.namespace}.${step.owner.table}`)} o where o.id = x.owner)
  `;
  return found.map((row) => row.id);
}
