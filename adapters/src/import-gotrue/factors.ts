import {
  afterId,
  countRows,
  countWrites,
  ImportFailure,
  type ImportStep,
  readRows,
  type SourceRow,
  sourceIsNewer,
  sourceTable,
  targetTable,
  updateAll,
} from "./step.js";

const COLUMNS = [
  "id",
  "user_id",
  "friendly_name",
  "factor_type",
  "status",
  "created_at",
  "updated_at",
  "secret",
  "phone",
  "last_challenged_at",
] as const;

const KINDS = ["totp", "phone"];

/**
 * TOTP and phone factors. A TOTP secret is opened as the reference stored it (in clear, or encrypted
 * with its `SECURITY_DB_ENCRYPTION` keys) and sealed as authsvc stores every secret: a secret that
 * cannot be opened stops the run, since leaving the factor out would take a second factor away from
 * its user. WebAuthn factors are not read: authsvc offers none.
 */
export const factors: ImportStep = {
  name: "mfa_factors",
  snapshotOf: "user_id",
  owner: { column: "user_id", table: "users", what: "user" },
  count: (ctx) => countRows(ctx, "mfa_factors", ctx.source`x.factor_type::text in ${ctx.source(KINDS)}`),
  async leftOut(ctx) {
    const count = await countRows(
      ctx,
      "mfa_factors",
      ctx.source`x.factor_type::text not in ${ctx.source(KINDS)}`,
    );
    return { count, why: "WebAuthn factors (authsvc offers none)" };
  },
  async read(ctx, after, limit) {
    const s = ctx.source;
    const rows = await readRows(
      ctx,
      s`
        select
          f.id,
          f.user_id,
          f.friendly_name,
          f.factor_type,
          f.status,
          f.created_at,
          f.updated_at,
          nullif(f.secret, '') as secret,
          nullif(f.phone, '') as phone,
          f.last_challenged_at
        from ${sourceTable(ctx, "mfa_factors")} f
        where f.factor_type::text in ${s(KINDS)} and ${afterId(ctx, "f.id", after, "uuid")}
        order by f.id
        limit ${limit}
      `,
    );
    return rows.map((row) => ({ ...row, secret: sealedSecret(ctx, row) }));
  },
  async write(tx, ctx, rows) {
    const table = targetTable(tx, ctx, "mfa_factors");
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

function sealedSecret(ctx: Parameters<ImportStep["read"]>[0], row: SourceRow): string | null {
  if (row.factor_type !== "totp" || typeof row.secret !== "string") return null;
  const id = String(row.id);
  const plaintext = ctx.openReferenceSecret(id, row.secret);
  if (plaintext === null) {
    throw new ImportFailure(
      `the TOTP secret of factor ${id} does not open: it is encrypted with a key that was not given (or was altered); set GOTRUE_SECURITY_DB_ENCRYPTION_DECRYPTION_KEYS (and GOTRUE_SECURITY_DB_ENCRYPTION_ENCRYPTION_KEY) as the reference had them`,
    );
  }
  return ctx.seal(id, plaintext);
}
