import {
  afterId,
  countRows,
  countWrites,
  type ImportStep,
  readRows,
  sourceTable,
  targetTable,
} from "./step.js";

const COLUMNS = ["id", "instance_id", "payload", "created_at", "ip_address"] as const;

/** The audit log (`--with-audit`): entries never change, so one already copied is left alone. */
export const auditLog: ImportStep = {
  name: "audit_log_entries",
  count: (ctx) => countRows(ctx, "audit_log_entries"),
  read(ctx, after, limit) {
    const s = ctx.source;
    return readRows(
      ctx,
      s`
        select a.id, a.instance_id, a.payload, coalesce(a.created_at, 'epoch') as created_at, a.ip_address
        from ${sourceTable(ctx, "audit_log_entries")} a
        where ${afterId(ctx, "a.id", after, "uuid")}
        order by a.id
        limit ${limit}
      `,
    );
  },
  async write(tx, ctx, rows) {
    const table = targetTable(tx, ctx, "audit_log_entries");
    const written = await tx<{ inserted: boolean }[]>`
      insert into ${table} (${tx(COLUMNS)})
      select ${tx(COLUMNS)}
      from json_populate_recordset(null::${table}, ${JSON.stringify(rows)}::text::json)
      on conflict (id) do nothing
      returning true as inserted
    `;
    return countWrites(written);
  },
};
