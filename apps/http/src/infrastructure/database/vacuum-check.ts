import type { Sql } from "@authsvc/adapters";
import type { Logger } from "pino";

/**
 * Warns when the database does not vacuum by itself (`autovacuum = off`). The cleanup deletes rows;
 * only a vacuum makes their space and index entries reusable. Without one the tables stay bounded in
 * rows but not in size, and every statement that walks an index (the cleanup's own turns first) steps
 * over more dead entries as time goes: in a soak here, database CPU per request doubled in ten
 * minutes. A setting that cannot be read (a pooler that refuses `show`) says nothing.
 */
export async function warnIfNotVacuumed(sql: Sql, logger: Logger): Promise<void> {
  const setting = await sql<{ autovacuum: string }[]>`show autovacuum`.then(
    (rows) => rows[0]?.autovacuum,
    () => undefined,
  );
  if (setting === "off")
    logger.warn(
      { autovacuum: "off" },
      "the database's autovacuum is off: space the cleanup frees is reused only after a VACUUM; run one regularly (docs/operations.md#cleanup)",
    );
}
