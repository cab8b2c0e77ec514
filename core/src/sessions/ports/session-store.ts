import type { RefreshTokenRecord, Session } from "../session.js";

/**
 * Sessions and their refresh tokens. Tokens form a chain inside a session: each rotation revokes the
 * current token and inserts its child. Exactly one token of a live session is not revoked.
 */
export interface SessionStore {
  /** Inserts a new session (its first refresh token is inserted with `insertToken`). */
  create(session: Session): Promise<void>;
  /** The session with this id, or null when it ended (logout, deletion) or never existed. */
  find(id: string): Promise<Session | null>;
  /** The user's sessions, oldest first (`created_at`, then id). */
  listForUser(userId: string): Promise<Session[]>;
  /** Reads and row-locks the session (`for update`): refreshes of one session run one at a time. */
  lock(id: string): Promise<Session | null>;
  /** Records a refresh of the session at `at` (`refreshed_at`, `updated_at`). */
  markRefreshed(id: string, at: Date): Promise<void>;
  /** Deletes sessions of the user (all, or all but `except`), cascading to their refresh tokens. */
  deleteForUser(userId: string, options?: { except?: string }): Promise<number>;
  /** Deletes one session and its refresh tokens; false when there was none. */
  delete(id: string): Promise<boolean>;

  /** Inserts a refresh token (only its hash is stored) and answers it with its id. */
  insertToken(token: Omit<RefreshTokenRecord, "id">): Promise<RefreshTokenRecord>;
  /** The refresh token whose SHA-256 is `tokenHash`, revoked or not, or null. */
  findTokenByHash(tokenHash: string): Promise<RefreshTokenRecord | null>;
  /** The session's current (non-revoked) token, or null when the whole chain is revoked. */
  activeToken(sessionId: string): Promise<RefreshTokenRecord | null>;
  /** Marks one token revoked at `at` (its `updatedAt` becomes `at`). */
  revokeToken(id: string, at: Date): Promise<void>;
  /** Revokes every not-yet-revoked token descended from `id` (children, their children, …). */
  revokeDescendants(id: string, at: Date): Promise<number>;
  /** Revokes every refresh token of the user (ban). */
  revokeAllForUser(userId: string, at: Date): Promise<number>;
}
