import type { Identity } from "../user.js";

/** The sign-in identities (email, phone, later OAuth providers) of users. */
export interface IdentityRepository {
  /** Inserts a new identity of an existing user. */
  insert(identity: Identity): Promise<void>;
  /** Overwrites the identity with this id (its `identity_data` after an email or phone change). */
  update(identity: Identity): Promise<void>;
  /** The user's identities, oldest first. */
  listByUser(userId: string): Promise<Identity[]>;
}
