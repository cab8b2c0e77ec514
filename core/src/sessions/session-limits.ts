import type { Session } from "./session.js";
import type { SessionLimits } from "./settings.js";

export type { SessionLimits };

/** Why a session can no longer be refreshed. */
export type SessionEnd = "not_after" | "timebox" | "inactivity";

type Timed = Pick<Session, "createdAt" | "refreshedAt" | "notAfter">;

/**
 * When the session was last active: its last refresh, else (for rows written before `refreshed_at` was
 * kept) the presented refresh token's last change when later than the session's creation, else its
 * creation. The reference's `LastRefreshedAt`. In SQL:
 * `coalesce(s.refreshed_at, greatest(s.created_at, t.updated_at))`.
 */
export function lastActiveAt(session: Timed, tokenUpdatedAt?: Date): Date {
  if (session.refreshedAt !== null) return session.refreshedAt;
  if (tokenUpdatedAt !== undefined && tokenUpdatedAt.getTime() > session.createdAt.getTime()) {
    return tokenUpdatedAt;
  }
  return session.createdAt;
}

/**
 * Whether the session has ended at `now`, and why; null while it may still be refreshed. Checked in the
 * reference's order (its `CheckValidity`), each limit strictly after its instant:
 * `now > not_after`, then `now > created_at + timebox`, then `now > lastActiveAt + inactivity_timeout`.
 */
export function sessionEnd(
  session: Timed,
  limits: SessionLimits,
  now: Date,
  tokenUpdatedAt?: Date,
): SessionEnd | null {
  const t = now.getTime();
  if (session.notAfter !== null && t > session.notAfter.getTime()) return "not_after";
  if (limits.timeboxMs > 0 && t > session.createdAt.getTime() + limits.timeboxMs) return "timebox";
  const idleSince = lastActiveAt(session, tokenUpdatedAt).getTime();
  if (limits.inactivityTimeoutMs > 0 && t > idleSince + limits.inactivityTimeoutMs) return "inactivity";
  return null;
}

/**
 * `SESSIONS_SINGLE_PER_USER`: whether another of the user's sessions that has not ended was active more
 * recently than `session` (a newer sign-in, or a refresh of another session since) — then `session` is
 * superseded and its refresh refused. Other sessions are compared by `refreshed_at`, else `created_at`
 * (the presented token says nothing about them). The reference also groups sessions by tag
 * (`SESSIONS_TAGS`), but nothing ever sets a tag, so every session is in one group.
 */
export function supersededBy(
  session: Timed & Pick<Session, "id">,
  siblings: readonly (Timed & Pick<Session, "id">)[],
  limits: SessionLimits,
  now: Date,
  tokenUpdatedAt?: Date,
): boolean {
  const own = lastActiveAt(session, tokenUpdatedAt).getTime();
  return siblings.some(
    (other) =>
      other.id !== session.id &&
      sessionEnd(other, limits, now) === null &&
      lastActiveAt(other).getTime() > own,
  );
}

/**
 * When the session ends regardless of activity: the earlier of its stored `not_after` and the end of
 * its timebox; null when neither limits it. What `GET /user/sessions` shows as `not_after`.
 */
export function fixedEnd(session: Timed, limits: SessionLimits): Date | null {
  const ends = [
    session.notAfter?.getTime(),
    limits.timeboxMs > 0 ? session.createdAt.getTime() + limits.timeboxMs : undefined,
  ].filter((t): t is number => t !== undefined);
  return ends.length === 0 ? null : new Date(Math.min(...ends));
}
