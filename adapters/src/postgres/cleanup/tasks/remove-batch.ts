import type { PendingQuery, Row, TransactionSql } from "postgres";

/**
 * Removes up to `limit` rows of `table` that `stale` selects, picked with `for update skip locked`
 * by their key columns: for tables whose rows nothing else references, so the delete cascades to
 * nothing and waits for nobody. Resolves to the rows removed.
 */
export async function removeBatch(
  sql: TransactionSql,
  options: {
    readonly namespace: string;
    readonly table: string;
    readonly key: readonly string[];
    readonly stale: PendingQuery<Row[]>;
    readonly limit: number;
  },
): Promise<number> {
  const table = sql`${sql(options.namespace)}.${sql(options.table)}`;
  const key = sql(options.key as string[]);
  const result = await sql`
    delete from ${table}
    where (${key}) in (
      select ${key} from ${table}
      where ${options.stale}
      limit ${options.limit}
      for update skip locked
    )`;
  return result.count;
}
