import type { RefreshTokenRecord, Session } from "../domain/session.js";
import type { Identity, User, UserWithIdentities } from "../domain/user.js";
import type { AuditLog } from "./audit-log.js";
import type { OneTimeTokenStore } from "./one-time-tokens.js";
import type { SendQuota } from "./send-quota.js";

/** Users. Emails are compared lowercased, phones as stored digits. */
export interface UserRepository {
  findById(id: string): Promise<User | null>;
  findWithIdentities(id: string): Promise<UserWithIdentities | null>;
  /** The non-SSO user with this (lowercased) email, or null. */
  findByEmail(email: string): Promise<User | null>;
  findByPhone(phone: string): Promise<User | null>;
  /** Reads and row-locks the user until the transaction ends (`for update`). */
  lock(id: string): Promise<User | null>;
  /**
   * Inserts a user. A concurrent or earlier user with the same email, phone or id is reported,
   * not thrown, so that a race between two sign-ups gives a clean answer.
   */
  insert(user: User): Promise<"inserted" | "duplicate_email" | "duplicate_phone" | "duplicate_id">;
  /** Overwrites every column of the user with this id; same duplicate reporting as `insert`. */
  update(user: User): Promise<"updated" | "duplicate_email" | "duplicate_phone" | "not_found">;
  /** Deletes the user and, by cascade, identities, sessions and refresh tokens. */
  delete(id: string): Promise<boolean>;
  /** Newest first (created_at desc, then id), with the total count. */
  list(options: {
    offset: number;
    limit: number;
    aud?: string;
  }): Promise<{ users: UserWithIdentities[]; total: number }>;
}

export interface IdentityRepository {
  insert(identity: Identity): Promise<void>;
  /** Overwrites the identity with this id (its `identity_data` after an email or phone change). */
  update(identity: Identity): Promise<void>;
  /** The user's identities, oldest first. */
  listByUser(userId: string): Promise<Identity[]>;
}

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

/** The repositories bound to one connection or transaction. */
export interface Repositories {
  readonly users: UserRepository;
  readonly identities: IdentityRepository;
  readonly sessions: SessionStore;
  readonly audit: AuditLog;
  readonly oneTimeTokens: OneTimeTokenStore;
  /**
   * Send counters shared by all instances. Bound to the transaction like the rest: a count taken by a
   * request whose change rolls back is rolled back too, and no request ever needs a second connection.
   */
  readonly quota: SendQuota;
}

/**
 * The database. Reads may use the repositories directly; a change that spans several writes runs in
 * `transaction`, which commits when the callback resolves and rolls back when it throws. Expected
 * failures are returned from the callback (so what was written before them commits), never thrown.
 */
export interface Store extends Repositories {
  transaction<T>(fn: (repos: Repositories) => Promise<T>): Promise<T>;
}
