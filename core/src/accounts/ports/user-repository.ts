import type { User, UserWithIdentities } from "../user.js";

/** Users. Emails are compared lowercased, phones as stored digits. */
export interface UserRepository {
  /** The user with this id, or null (also for an id that is not a UUID). */
  findById(id: string): Promise<User | null>;
  /** The user with this id and its identities (oldest first), or null. */
  findWithIdentities(id: string): Promise<UserWithIdentities | null>;
  /** The non-SSO user with this (lowercased) email, or null. */
  findByEmail(email: string): Promise<User | null>;
  /** The user with this phone (E.164 digits, no `+`), or null. */
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
  /**
   * Newest first (created_at desc, then id), with the total count: of the audience's users (of all
   * users without `aud`), exact. With `filter`, only users whose email or `user_metadata.full_name`
   * contains it (case-insensitive; `%`, `_` and `\` are plain characters), and the total counts
   * them up to `countLimit` only: `min(matches, countLimit)`.
   */
  list(options: {
    offset: number;
    limit: number;
    aud?: string;
    filter?: string;
    countLimit?: number;
  }): Promise<{ users: UserWithIdentities[]; total: number }>;
  /**
   * Keyset pages, in the order of `list` (with its `aud` and `filter`): up to `limit` users after the
   * position `after` (none: from the newest), and the position of the last one when more follow (null
   * at the end). Counts nothing and skips nothing: a page costs the same at any depth.
   */
  listAfter(options: {
    limit: number;
    after: UserListPosition | null;
    aud?: string;
    filter?: string;
  }): Promise<{ users: UserWithIdentities[]; next: UserListPosition | null }>;
}

/** A place in the user list: a user's `created_at` (RFC 3339, to the microsecond) and id. */
export interface UserListPosition {
  readonly createdAt: string;
  readonly id: string;
}
