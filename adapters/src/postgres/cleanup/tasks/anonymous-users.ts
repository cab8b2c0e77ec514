import { type CleanupTask, cascadingShare, secondsAgo } from "../task.js";

/** How long the reference keeps an anonymous user: thirty days from its creation. */
const ANONYMOUS_USER_DAYS = 30;

/**
 * Anonymous users created more than thirty days ago (only listed while anonymous sign-ins are on, as
 * the reference), with everything that is theirs (cascade). Their sessions, refresh tokens and
 * factors are locked first with `skip locked`, and a user any of whose rows another transaction holds
 * (a refresh in progress holds its session) waits for a later turn: the cascade never waits for a
 * request, nor for another cleaner removing the same user's tokens or factors.
 */
export const anonymousUsers: CleanupTask = {
  name: "anonymous_users",
  limit: cascadingShare,
  async run({ sql, namespace, limit }) {
    const schema = sql(namespace);
    const result = await sql`
      with candidates as (
        select id from ${schema}.users
        where is_anonymous and created_at < ${secondsAgo(sql, ANONYMOUS_USER_DAYS * 24 * 60 * 60)}
        limit ${limit}
        for update skip locked
      ), sessions as (
        select id from ${schema}.sessions where user_id in (select id from candidates)
        for update skip locked
      ), tokens as (
        select id from ${schema}.refresh_tokens where user_id in (select id from candidates)
        for update skip locked
      ), factors as (
        select id from ${schema}.mfa_factors where user_id in (select id from candidates)
        for update skip locked
      )
      delete from ${schema}.users u
      where u.id in (select id from candidates)
        and not exists (
          select 1 from ${schema}.sessions s where s.user_id = u.id and s.id not in (select id from sessions)
        )
        and not exists (
          select 1 from ${schema}.refresh_tokens t where t.user_id = u.id and t.id not in (select id from tokens)
        )
        and not exists (
          select 1 from ${schema}.mfa_factors f where f.user_id = u.id and f.id not in (select id from factors)
        )`;
    return result.count;
  },
};
