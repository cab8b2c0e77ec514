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
 * argon2id instead). The one-time token hashes of links and codes the reference sent are not copied:
 * authsvc keeps its pending tokens in `one_time_tokens` with attempt counts, so those links end and a
 * person asks for a new one; the pending email or phone change they would confirm goes with them.
 * The reference writes '' for "none" where authsvc writes null; live emails are lowercased, which the
 * reference also did on every write (its unique key on email relies on it as authsvc's does).
 */
export const users: ImportStep = {
  name: "users",
  snapshotOf: "id",
  count: (ctx) => countRows(ctx, "users"),
  read(ctx, after, limit) {
    const s = ctx.source;
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
          u.email_confirmed_at,
          u.invited_at,
          u.confirmation_sent_at,
          u.recovery_sent_at,
          null as email_change,
          u.email_change_sent_at,
          u.last_sign_in_at,
          u.raw_app_meta_data,
          u.raw_user_meta_data,
          u.is_super_admin,
          coalesce(u.created_at, u.updated_at, 'epoch') as created_at,
          coalesce(u.updated_at, u.created_at, 'epoch') as updated_at,
          nullif(u.phone, '') as phone,
          u.phone_confirmed_at,
          null as phone_change,
          u.phone_change_sent_at,
          0 as email_change_confirm_status,
          u.banned_until,
          u.reauthentication_sent_at,
          u.is_sso_user,
          u.deleted_at,
          u.is_anonymous
        from ${sourceTable(ctx, "users")} u
        where ${afterId(ctx, "u.id", after, "uuid")}
        order by u.id
        limit ${limit}
      `,
    );
  },
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
