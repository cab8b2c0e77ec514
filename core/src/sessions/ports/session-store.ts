import type { RefreshTokenRecord, Session } from "../session.js";

/**
 * Sessions and their refresh tokens. Tokens form a chain inside a session: each rotation revokes the
 * current token and inserts its child. Exactly one token of a live session is not revoked.
 */
export interface SessionStore {
  create(session: Session): Promise<void>;
  find(id: string): Promise<Session | null>;
  /** Reads and row-locks the session (`for update`): refreshes of one session run one at a time. */
  lock(id: string): Promise<Session | null>;
  markRefreshed(id: string, at: Date): Promise<void>;
  /** Deletes sessions of the user (all, or all but `except`), cascading to their refresh tokens. */
  deleteForUser(userId: string, options?: { except?: string }): Promise<number>;
  delete(id: string): Promise<boolean>;

  insertToken(token: Omit<RefreshTokenRecord, "id">): Promise<RefreshTokenRecord>;
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
