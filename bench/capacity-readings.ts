/**
 * What the `capacity` extra reads of the database: the WAL a stretch of work wrote to it, the rows
 * of each table, and the bytes each table takes. PostgreSQL's WAL is one stream for the whole
 * cluster, which other databases on a shared machine write too; with `pg_walinspect` (PostgreSQL 15+,
 * a superuser's) only the records of this database's relations and their transactions' commits are
 * counted, else the cluster's whole difference (marked `clusterWide`).
 */
import type postgres from "postgres";

export interface WalReading {
  bytes: number;
  /** Of `bytes`, full-page images (the first change of a page after each checkpoint). */
  fpiBytes: number;
  commits: number;
  /** Bytes by relation (table or index name; `commit` for commit records). */
  byRelation: Record<string, number>;
  /** True when pg_walinspect was unavailable: every database's WAL is in the figure. */
  clusterWide: boolean;
}

export interface WalMeter {
  mark(): Promise<string>;
  since(from: string): Promise<WalReading>;
}

export async function walMeter(sql: postgres.Sql): Promise<WalMeter> {
  const inspect = await sql`create extension if not exists pg_walinspect`.then(
    () => true,
    () => false,
  );
  const [db] = await sql<
    { oid: string }[]
  >`select oid::text from pg_database where datname = current_database()`;
  const names = new Map(
    (
      await sql<{ node: string; name: string }[]>`
        select pg_relation_filenode(c.oid)::text as node, c.relname as name
        from pg_class c where pg_relation_filenode(c.oid) is not null`
    ).map((r) => [r.node, r.name]),
  );
  const mark = async () =>
    (await sql<{ lsn: string }[]>`select pg_current_wal_flush_lsn()::text as lsn`)[0]?.lsn ?? "0/0";
  return {
    mark,
    async since(from) {
      // Past every record of the work: a commit is flushed before its answer is sent.
      const to = await mark();
      if (!inspect) {
        const [d] = await sql<{ bytes: string }[]>`select pg_wal_lsn_diff(${to}, ${from})::text as bytes`;
        return { bytes: Number(d?.bytes), fpiBytes: 0, commits: 0, byRelation: {}, clusterWide: true };
      }
      // A record is this database's when its first block is a relation of it; a commit when its
      // transaction wrote such a record.
      const rows = await sql<{ node: string; bytes: string; fpi: string; records: string }[]>`
        with r as (
          select xid, resource_manager, record_type, record_length, fpi_length,
            substring(block_ref from 'rel \\d+/(\\d+)/') as db,
            substring(block_ref from 'rel \\d+/\\d+/(\\d+)') as node
          from pg_get_wal_records_info(${from}::pg_lsn, ${to}::pg_lsn)
        ), ours as (select * from r where db = ${db?.oid ?? ""})
        select node, sum(record_length)::text as bytes, sum(fpi_length)::text as fpi, count(*)::text as records
        from ours group by node
        union all
        select 'commit', coalesce(sum(record_length), 0)::text, '0', count(*)::text
        from r
        where resource_manager = 'Transaction' and record_type like 'COMMIT%'
          and xid in (select xid from ours where xid <> '0')`;
      const byRelation: Record<string, number> = {};
      let bytes = 0;
      let fpiBytes = 0;
      let commits = 0;
      for (const row of rows) {
        const name = row.node === "commit" ? "commit" : (names.get(row.node) ?? `filenode ${row.node}`);
        byRelation[name] = (byRelation[name] ?? 0) + Number(row.bytes);
        bytes += Number(row.bytes);
        fpiBytes += Number(row.fpi);
        if (row.node === "commit") commits = Number(row.records);
      }
      return { bytes, fpiBytes, commits, byRelation, clusterWide: false };
    },
  };
}

/** The tables of `namespace`. */
export async function tablesOf(sql: postgres.Sql, namespace: string): Promise<string[]> {
  return (
    await sql<
      { name: string }[]
    >`select tablename as name from pg_tables where schemaname = ${namespace} order by 1`
  ).map((r) => r.name);
}

/** Exact rows of each table of `namespace`. */
export async function rowCounts(sql: postgres.Sql, namespace: string): Promise<Record<string, number>> {
  const counts: Record<string, number> = {};
  for (const table of await tablesOf(sql, namespace)) {
    const [row] = await sql<{ n: string }[]>`select count(*)::text as n from ${sql(namespace)}.${sql(table)}`;
    counts[table] = Number(row?.n);
  }
  return counts;
}

export interface TableSize {
  table: string;
  rows: number;
  heapBytes: number;
  indexBytes: number;
  /** Heap, indexes, TOAST and the free-space and visibility maps. */
  totalBytes: number;
  /**
   * The rows written since `since` (by the service itself) ÷ all rows, in average row size: the
   * bench's population is written by SQL and lacks what real rows carry (a password hash, metadata).
   */
  freshRowRatio: number;
}

/** The filter on rows written since `since`: by the row's own stamp, else its user's; none else. */
async function freshness(sql: postgres.Sql, namespace: string, table: string) {
  const columns = (
    await sql<{ name: string }[]>`
      select column_name as name from information_schema.columns
      where table_schema = ${namespace} and table_name = ${table}`
  ).map((c) => c.name);
  if (columns.includes("created_at")) return (since: Date) => sql`t.created_at >= ${since}`;
  if (columns.includes("user_id"))
    return (since: Date) =>
      sql`t.user_id in (select id from ${sql(namespace)}.users where created_at >= ${since})`;
  return undefined;
}

/**
 * Rows and bytes of each table of `namespace`, after a vacuum (the space of removed rows marked
 * free), and how the rows written since `since` compare in size with all of them.
 */
export async function tableSizes(sql: postgres.Sql, namespace: string, since: Date): Promise<TableSize[]> {
  const counts = await rowCounts(sql, namespace);
  const sizes: TableSize[] = [];
  for (const table of Object.keys(counts)) {
    await sql`vacuum analyze ${sql(namespace)}.${sql(table)}`;
    const [row] = await sql<{ heap: string; indexes: string; total: string }[]>`
      select pg_relation_size(c.oid)::text as heap, pg_indexes_size(c.oid)::text as indexes,
        pg_total_relation_size(c.oid)::text as total
      from pg_class c where c.oid = ${`${namespace}.${table}`}::regclass`;
    const fresh = await freshness(sql, namespace, table);
    let freshRowRatio = 1;
    if (fresh) {
      const [avg] = await sql<{ fresh: number | null; all: number | null }[]>`
        select avg(pg_column_size(t.*)) filter (where ${fresh(since)})::float8 as fresh,
          avg(pg_column_size(t.*))::float8 as all
        from ${sql(namespace)}.${sql(table)} t`;
      if (avg?.fresh && avg.all) freshRowRatio = avg.fresh / avg.all;
    }
    sizes.push({
      table,
      rows: counts[table] ?? 0,
      heapBytes: Number(row?.heap),
      indexBytes: Number(row?.indexes),
      totalBytes: Number(row?.total),
      freshRowRatio,
    });
  }
  return sizes;
}
