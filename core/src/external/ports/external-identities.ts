import type { Identity } from "../../accounts/index.js";

/** The identity lookups external sign-in and unlinking need beyond the accounts' repository. */
export interface ExternalIdentityStore {
  /** The identity of `provider` whose subject is `providerId`, or null. */
  findByProvider(provider: string, providerId: string): Promise<Identity | null>;
  /**
   * Identities whose `identity_data.email` (lowercased) is one of `emails` and whose
   * `identity_data.email_verified` is true, oldest first. An address an identity carries unverified
   * never finds it: anyone can make a provider report any address unverified.
   */
  listByVerifiedEmails(emails: readonly string[]): Promise<Identity[]>;
  /**
   * Inserts a new identity unless one of its provider with its subject exists: false then, and
   * nothing is written. A concurrent first sign-in of the same person that inserted it first is seen
   * once it has committed (the insert waits for it), so the caller can sign into that one instead.
   */
  insertUnlessKnown(identity: Identity): Promise<boolean>;
  /** Deletes the identity with this id; false when there was none. */
  delete(id: string): Promise<boolean>;
}
