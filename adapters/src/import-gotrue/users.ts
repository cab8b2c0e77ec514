import { passwordHashRefusal } from "../crypto/password-hash-format.js";
import {
  afterId,
  clampedTime,
  countRows,
  countWrites,
  type ImportStep,
  readRows,
  sourceIsNewer,
  sourceTable,
  targetTable,
  updateAll,
} from "./step.js";

// The columns both schemas share; `confirmed_at` is generated in authsvc, `magic_link_sent_at` is authsvc's own.
const COLUMNS = [
  "id",
  "instance_id",
  "aud",
  "role",
  "email",
  "encrypted_password",
  "email_confirmed_at",
  "invited_at",
  "confirmation_sent_at",
  "recovery_sent_at",
  "email_change",
  "email_change_sent_at",
  "last_sign_in_at",
  "raw_app_meta_data",
  "raw_user_meta_data",
  "is_super_admin",
  "created_at",
  "updated_at",
  "phone",
  "phone_confirmed_at",
  "phone_change",
  "phone_change_sent_at",
  "email_change_confirm_status",
  "banned_until",
  "reauthentication_sent_at",
  "is_sso_user",
  "deleted_at",
  "is_anonymous",
] as const;

/**
 * Users, with their password hashes as they are (bcrypt: verified at the next sign-in, which stores
 * argon2id instead), except that a user whose bcrypt or argon2 hash costs more than authsvc computes
 * is refused (crypto/password-hash-format.ts); timestamps are clamped into 0001 … 9999 (`clampedTime`).
 * The one-time token hashes of links and codes the reference sent are not copied: authsvc keeps its
 * pending tokens in `one_time_tokens` with attempt counts, so those links end and a person asks for a
 * new one; the pending email or phone change they would confirm goes with them.
 * The reference writes '' for "none" where authsvc writes null; live emails are lowercased, which the
 * reference also did on every write (its unique key on email relies on it as authsvc's does).
 */
export const users: ImportStep = {
  name: "users",
  snapshotOf: "id",
  count: (ctx) => countRows(ctx, "users"),
  read(ctx, after, limit) {
    const s = ctx.source;
    const time = (column: string) => clampedTime(ctx, s`${s(`u.${column}`)}`);
    return readRows(
      ctx,
      s`
        select
          u.id,
          u.instance_id,
          u.aud,
          u.role,
          case when u.deleted_at is null then lower(nullif(u.email, '')) else nullif(u.email, '') end as email,
          nullif(u.encrypted_password, '') as encrypted_password,
          ${time("email_confirmed_at")} as email_confirmed_at,
          ${time("invited_at")} as invited_at,
          ${time("confirmation_sent_at")} as confirmation_sent_at,
          ${time("recovery_sent_at")} as recovery_sent_at,
          null as email_change,
          ${time("email_change_sent_at")} as email_change_sent_at,
          ${time("last_sign_in_at")} as last_sign_in_at,
          u.raw_app_meta_data,
          u.raw_user_meta_data,
          u.is_super_admin,
          ${clampedTime(ctx, s`coalesce(u.created_at, u.updated_at, 'epoch')`)} as created_at,
          ${clampedTime(ctx, s`coalesce(u.updated_at, u.created_at, 'epoch')`)} as updated_at,
          nullif(u.phone, '') as phone,
          ${time("phone_confirmed_at")} as phone_confirmed_at,
          null as phone_change,
          ${time("phone_change_sent_at")} as phone_change_sent_at,
          0 as email_change_confirm_status,
          ${time("banned_until")} as banned_until,
          ${time("reauthentication_sent_at")} as reauthentication_sent_at,
          u.is_sso_user,
          ${time("deleted_at")} as deleted_at,
          u.is_anonymous
        from ${sourceTable(ctx, "users")} u
        where ${afterId(ctx, "u.id", after, "uuid")}
        order by u.id
        limit ${limit}
      `,
    );
  },
  // A hash beyond the cost limits would never sign in here, and would be a sign-in's worth of denial
  // of service if it were ever computed: the user stays behind, named, for the operator to settle.
  refuse: (row) =>
    typeof row.encrypted_password === "string" ? passwordHashRefusal(row.encrypted_password) : null,
  async write(tx, ctx, rows) {
    const table = targetTable(tx, ctx, "users");
    const written = await tx<{ inserted: boolean }[]>`
      insert into ${table} as t (${tx(COLUMNS)})
      select ${tx(COLUMNS)}
      from json_populate_recordset(null::${table}, ${JSON.stringify(rows)}::text::json)
      on conflict (id) do update set ${updateAll(tx, COLUMNS)}
      where ${sourceIsNewer(tx)}
      returning (xmax = 0) as inserted
    `;
    return countWrites(written);
  },
};
