import type { Factor } from "@authsvc/core/accounts";
import type { ChallengeStore, FactorStore, RecoveryCodeStore, SessionAssurance } from "@authsvc/core/mfa";
import {
  challengeFromRow,
  factorAttemptsFromRow,
  factorColumns,
  factorFromRow,
  isUuid,
  json,
  type Queryable,
} from "./rows.js";

/** `FactorStore` over `mfa_factors` of `namespace`. */
export function postgresFactorStore(sql: Queryable, options: { namespace: string }): FactorStore {
  const factors = sql`${sql(options.namespace)}.mfa_factors`;
  const attemptsTable = sql`${sql(options.namespace)}.mfa_factor_attempts`;

  /** Which of the user's other factors `factor` clashes with: its non-empty name, or its phone. */
  async function clash(factor: Factor): Promise<"name_taken" | "phone_taken"> {
    const [named] = await sql`
      select 1 from ${factors}
      where user_id = ${factor.userId}
        and id <> ${factor.id}
        and friendly_name = ${factor.friendlyName}
        and trim(friendly_name) <> ''
    `;
    return named ? "name_taken" : "phone_taken";
  }

  async function clashes(factor: Factor): Promise<boolean> {
    const [row] = await sql`
      select 1 from ${factors}
      where user_id = ${factor.userId}
        and id <> ${factor.id}
        and ((friendly_name = ${factor.friendlyName} and trim(friendly_name) <> '') or phone = ${factor.phone})
    `;
    return row !== undefined;
  }

  return {
    async listByUser(userId) {
      if (!isUuid(userId)) return [];
      const rows = await sql`select * from ${factors} where user_id = ${userId} order by created_at, id`;
      return rows.map(factorFromRow);
    },

    async insert(factor) {
      // Either unique index (name per user, phone per user) turns the insert into no row, atomically.
      const [row] = await sql`
        insert into ${factors} ${sql(factorColumns(sql, factor))}
        on conflict do nothing
        returning id
      `;
      return row ? "inserted" : clash(factor);
    },

    async findOwned(userId, id) {
      if (!isUuid(userId) || !isUuid(id)) return null;
      const [row] = await sql`select * from ${factors} where id = ${id} and user_id = ${userId}`;
      return row ? factorFromRow(row) : null;
    },

    async lockOwned(userId, id) {
      if (!isUuid(userId) || !isUuid(id)) return null;
      // "No key update": attempts wait for one another, yet inserts referencing the factor (its
      // challenges, its attempts row) do not.
      const [row] = await sql`
        select * from ${factors}
        where id = ${id}
          and user_id = ${userId}
        for no key update
      `;
      if (!row) return null;
      // Read in a statement of its own, started once the lock is held: a join in the locking statement
      // would show the attempts as they were before the previous holder committed.
      const [attempts] = await sql`select * from ${attemptsTable} where factor_id = ${id}`;
      return { factor: factorFromRow(row), attempts: factorAttemptsFromRow(attempts ?? {}) };
    },

    async setAttempts(id, attempts) {
      if (!isUuid(id)) return;
      // Nothing when the factor is gone (the insert finds no factor to select).
      await sql`
        insert into ${attemptsTable} (
          factor_id,
          failed_attempts,
          locked_until,
          last_totp_step
        )
        select
          id,
          ${attempts.failedAttempts},
          ${attempts.lockedUntil},
          ${attempts.lastTotpStep}
        from ${factors}
        where id = ${id}
        on conflict (factor_id) do update
          set
            failed_attempts = excluded.failed_attempts,
            locked_until = excluded.locked_until,
            last_totp_step = excluded.last_totp_step
      `;
    },

    async update(factor) {
      if (await clashes(factor)) return clash(factor);
      const { id, user_id, created_at, factor_type, ...columns } = factorColumns(sql, factor);
      await sql`update ${factors} set ${sql(columns)} where id = ${id}`;
      return "updated";
    },

    async delete(id) {
      if (!isUuid(id)) return false;
      return (await sql`delete from ${factors} where id = ${id}`).count > 0;
    },

    async deleteUnverified(userId, type, exceptId) {
      const result = await sql`
        delete from ${factors}
        where user_id = ${userId}
          and factor_type = ${type}
          and status = 'unverified'
          and id <> ${exceptId}
      `;
      return result.count;
    },

    async deleteUnverifiedBefore(userId, before) {
      const result = await sql`
        delete from ${factors}
        where user_id = ${userId}
          and status = 'unverified'
          and created_at < ${before}
      `;
      return result.count;
    },
  };
}

/** `ChallengeStore` over `mfa_challenges` of `namespace`. */
export function postgresChallengeStore(sql: Queryable, options: { namespace: string }): ChallengeStore {
  const challenges = sql`${sql(options.namespace)}.mfa_challenges`;
  return {
    async insert(c) {
      await sql`
        insert into ${challenges} ${sql({
          id: c.id,
          factor_id: c.factorId,
          created_at: c.createdAt,
          verified_at: c.verifiedAt,
          ip_address: c.ipAddress,
          otp_code: c.otpCode,
          attempts: c.attempts,
          web_authn_session_data: c.webauthnState ? json(sql, c.webauthnState) : null,
        })}
      `;
    },

    async findOfFactor(factorId, id) {
      if (!isUuid(factorId) || !isUuid(id)) return null;
      const [row] = await sql`select * from ${challenges} where id = ${id} and factor_id = ${factorId}`;
      return row ? challengeFromRow(row) : null;
    },

    async countAttempt(id, max) {
      if (!isUuid(id)) return false;
      // A concurrent update of the row waits, then re-reads the count: the limit holds in parallel.
      const result = await sql`
        update ${challenges}
        set attempts = attempts + 1
        where id = ${id}
          and attempts < ${max}
      `;
      return result.count > 0;
    },

    async markVerified(id, at) {
      const result = await sql`
        update ${challenges}
        set verified_at = ${at}
        where id = ${id}
          and verified_at is null
      `;
      return result.count > 0;
    },

    async delete(id) {
      if (isUuid(id)) await sql`delete from ${challenges} where id = ${id}`;
    },
  };
}

/** `SessionAssurance` over `sessions` of `namespace`: aal, amr and the raising factor. */
export function postgresSessionAssurance(sql: Queryable, options: { namespace: string }): SessionAssurance {
  const sessions = sql`${sql(options.namespace)}.sessions`;
  return {
    async raise(sessionId, { amr, factorId, at }) {
      await sql`
        update ${sessions}
        set
          aal = 'aal2',
          amr = ${json(sql, amr)},
          factor_id = ${factorId},
          updated_at = ${at}
        where id = ${sessionId}
      `;
    },

    async deleteBelowAal2(userId, exceptId) {
      const result = await sql`
        delete from ${sessions}
        where user_id = ${userId}
          and id <> ${exceptId}
          and coalesce(aal, 'aal1') < 'aal2'
      `;
      return result.count;
    },

    async lowerRaisedBy(factorId, method, at) {
      // jsonb_path_query_array keeps the other methods, in their order.
      const result = await sql`
        update ${sessions}
        set
          aal = 'aal1',
          factor_id = null,
          amr = coalesce(
            (select jsonb_agg(entry) from jsonb_array_elements(amr) entry where entry ->> 'method' <> ${method}),
            '[]'::jsonb
          ),
          updated_at = ${at}
        where factor_id = ${factorId}
      `;
      return result.count;
    },
  };
}

/** `RecoveryCodeStore` over `mfa_recovery_codes` of `namespace`. */
export function postgresRecoveryCodeStore(sql: Queryable, options: { namespace: string }): RecoveryCodeStore {
  const codes = sql`${sql(options.namespace)}.mfa_recovery_codes`;
  return {
    async replace(factorId, set, at) {
      await sql`delete from ${codes} where factor_id = ${factorId}`;
      if (set.length === 0) return;
      const rows = set.map((code) => ({
        id: code.id,
        factor_id: factorId,
        code_hash: code.codeHash,
        created_at: at,
        used_at: null,
      }));
      await sql`insert into ${codes} ${sql(rows)}`;
    },

    async unused(factorId) {
      if (!isUuid(factorId)) return [];
      const rows = await sql`
        select
          id,
          code_hash
        from ${codes}
        where factor_id = ${factorId}
          and used_at is null
        order by created_at, id
      `;
      return rows.map((row) => ({ id: String(row.id), codeHash: String(row.code_hash) }));
    },

    async consume(id, at) {
      if (!isUuid(id)) return false;
      // One statement: of two uses of one code, the second finds used_at set and changes nothing.
      const result = await sql`
        update ${codes}
        set used_at = ${at}
        where id = ${id}
          and used_at is null
      `;
      return result.count > 0;
    },

    async count(factorId) {
      if (!isUuid(factorId)) return { total: 0, remaining: 0 };
      const [row] = await sql`
        select
          count(*)::int as total,
          (count(*) filter (where used_at is null))::int as remaining
        from ${codes}
        where factor_id = ${factorId}
      `;
      return { total: Number(row?.total ?? 0), remaining: Number(row?.remaining ?? 0) };
    },
  };
}
