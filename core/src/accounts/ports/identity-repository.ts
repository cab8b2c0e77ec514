import type { Identity } from "../user.js";

/** The sign-in identities (email, phone, later OAuth providers) of users. */
export interface IdentityRepository {
  /** Inserts a new identity of an existing user. */
  insert(identity: Identity): Promise<void>;
  /** Overwrites the identity with this id (its `identity_data` after an email or phone change). */
  update(identity: Identity): Promise<void>;
  /** The user's identities, oldest first. */
  listByUser(userId: string): Promise<Identity[]>;
  /**
   * Removes the user's identities of external providers (all but `email` and `phone`); resolves how
   * many went. For an account whose address its owner proves only now: whoever holds such an identity
   * has proven nothing about the address.
   */
  deleteExternal(userId: string): Promise<number>;
}
