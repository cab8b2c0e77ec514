import {
  afterId,
  countRows,
  countWrites,
  type ImportStep,
  readRows,
  sourceIsNewer,
  sourceTable,
  targetTable,
  updateAll,
} from "./step.js";

// `email` is generated from identity_data in both schemas.
const COLUMNS = [
  "id",
  "provider_id",
  "user_id",
  "identity_data",
  "provider",
  "last_sign_in_at",
  "created_at",
  "updated_at",
] as const;

/** Identities as they are; one whose user was refused (see the summary's rejections) is left out. */
export const identities: ImportStep = {
  name: "identities",
  snapshotOf: "user_id",
  owner: { column: "user_id", table: "users", what: "user" },
  count: (ctx) => countRows(ctx, "identities"),
  read(ctx, after, limit) {
    const s = ctx.source;
    return readRows(
      ctx,
      s`
        select
          i.id,
          i.provider_id,
          i.user_id,
          i.identity_data,
          i.provider,
          i.last_sign_in_at,
          coalesce(i.created_at, i.updated_at, 'epoch') as created_at,
          coalesce(i.updated_at, i.created_at, 'epoch') as updated_at
        from ${sourceTable(ctx, "identities")} i
        where ${afterId(ctx, "i.id", after, "uuid")}
        order by i.id
        limit ${limit}
      `,
    );
  },
  async write(tx, ctx, rows) {
    const table = targetTable(tx, ctx, "identities");
    const written = await tx<{ inserted: boolean }[]>`
      insert into ${table} as t (${tx(COLUMNS)})
      select ${tx(COLUMNS)}
      from json_populate_recordset(null::${table}, ${JSON.stringify(rows)}::text::json) x
      where exists (select 1 from ${targetTable(tx, ctx, "users")} u where u.id = x.user_id)
      on conflict (id) do update set ${updateAll(tx, COLUMNS)}
      where ${sourceIsNewer(tx)}
      returning (xmax = 0) as inserted
    `;
    return countWrites(written);
  },
};
