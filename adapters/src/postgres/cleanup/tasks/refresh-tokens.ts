import { type CleanupTask, secondsAgo } from "../task.js";

/**
 * Refresh tokens revoked longer ago than `retentionMs` (`CLEANUP_REVOKED_TOKEN_RETENTION`, a day by
 * default: until then, presenting one is recognised as reuse and revokes its family; after, it is
 * answered as unknown). A family's live token is never revoked, so it
 * never qualifies. Removing a token sets its child's `parent_id` to null (the foreign key's
 * `on delete set null`); that update would wait for a child another transaction holds — a refresh
 * rotating it, or another cleaner removing it while it removes this token's parent, each waiting for
 * the other — so the statement also locks the children with `skip locked` and keeps every token one
 * of whose children it could not lock for a later turn. The statement then waits for nobody.
 *
 * No `order by`: taking the oldest first walks, on every turn, the index entries of all the rows the
 * turns before removed (until a vacuum); the planner's own choice took half the time per turn.
 */
export const refreshTokens = (retentionMs: number): CleanupTask => ({
  name: "refresh_tokens",
  async run({ sql, namespace, limit }) {
    const tokens = sql`${sql(namespace)}.refresh_tokens`;
    const result = await sql`
      with candidates as (
        select id from ${tokens}
        where revoked and updated_at < ${secondsAgo(sql, retentionMs / 1000)}
        limit ${limit}
        for update skip locked
      ), children as (
        select c.id from ${tokens} c
        where c.parent_id in (select id from candidates)
        for no key update skip locked
      )
      delete from ${tokens} r
      where r.id in (select id from candidates)
        and not exists (
          select 1 from ${tokens} c
          where c.parent_id = r.id and c.id not in (select id from children)
        )`;
    return result.count;
  },
});
