import type { Factor } from "./factor.js";
/** JSON objects as stored in `raw_user_meta_data` / `raw_app_meta_data`. */
export type Metadata = Readonly<Record<string, unknown>>;

/**
 * A user as stored. `email` is lowercased; `phone` is digits only (E.164 without `+`), as the
 * reference stores it. Timestamps are `Date`s; `null` means "never" / "not set".
 */
export interface User {
  readonly id: string;
  readonly aud: string;
  readonly role: string;
  readonly email: string | null;
  readonly phone: string | null;
  /** argon2id PHC string, or an imported bcrypt/argon2 hash until the next sign-in; null = no password. */
  readonly encryptedPassword: string | null;
  readonly emailConfirmedAt: Date | null;
  readonly phoneConfirmedAt: Date | null;
  readonly invitedAt: Date | null;
  readonly confirmationSentAt: Date | null;
  readonly recoverySentAt: Date | null;
  /** When the last magic link went out: magic links have their own resend gap, apart from recovery. */
  readonly magicLinkSentAt: Date | null;
  readonly emailChange: string | null;
  readonly emailChangeSentAt: Date | null;
  readonly phoneChange: string | null;
  readonly phoneChangeSentAt: Date | null;
  readonly reauthenticationSentAt: Date | null;
  /** SHA-256 hex of the pending reauthentication nonce, or null. */
  readonly reauthenticationToken: string | null;
  readonly lastSignInAt: Date | null;
  readonly appMetadata: Metadata;
  readonly userMetadata: Metadata;
  readonly bannedUntil: Date | null;
  readonly isAnonymous: boolean;
  /**
   * Created by SAML single sign-on: its address is the identity provider's to manage, and it is never
   * found by the email lookups of the other sign-in methods. Absent: false.
   */
  readonly isSsoUser?: boolean;
  /** Set by an admin soft delete (`should_soft_delete`): the row stays, obfuscated. */
  readonly deletedAt: Date | null;
  readonly createdAt: Date;
  readonly updatedAt: Date;
}

/** A user with the identities the reference embeds in its user JSON. */
export interface UserWithIdentities extends User {
  readonly identities: readonly Identity[];
  /**
   * Its second factors, where the body read them (the reference omits the field when there are none);
   * without their secrets, which the body never shows (a user snapshot does not hold them).
   */
  readonly factors?: readonly Omit<Factor, "secret">[];
}

/** A way of signing in (email, phone, an OAuth provider), as stored in `identities`. */
export interface Identity {
  /** Row id (`identity_id` in JSON). */
  readonly id: string;
  /** The provider's subject (`id` in JSON): the user id for email and phone. */
  readonly providerId: string;
  readonly userId: string;
  readonly provider: string;
  readonly identityData: Metadata;
  readonly lastSignInAt: Date | null;
  readonly createdAt: Date;
  readonly updatedAt: Date;
}

/** Whether the user is banned at `now`. */
export const isBanned = (user: Pick<User, "bannedUntil">, now: Date): boolean =>
  user.bannedUntil !== null && user.bannedUntil.getTime() > now.getTime();

/** `confirmed_at`: the earlier of the email and phone confirmations. */
export function confirmedAt(user: Pick<User, "emailConfirmedAt" | "phoneConfirmedAt">): Date | null {
  const times = [user.emailConfirmedAt, user.phoneConfirmedAt].filter((t): t is Date => t !== null);
  if (times.length === 0) return null;
  return times.reduce((a, b) => (a.getTime() <= b.getTime() ? a : b));
}

/** A user with every optional field unset, for building new users. */
export function blankUser(fields: Pick<User, "id" | "aud" | "role" | "createdAt"> & Partial<User>): User {
  return {
    email: null,
    phone: null,
    encryptedPassword: null,
    emailConfirmedAt: null,
    phoneConfirmedAt: null,
    invitedAt: null,
    confirmationSentAt: null,
    recoverySentAt: null,
    magicLinkSentAt: null,
    emailChange: null,
    emailChangeSentAt: null,
    phoneChange: null,
    phoneChangeSentAt: null,
    reauthenticationSentAt: null,
    reauthenticationToken: null,
    lastSignInAt: null,
    appMetadata: {},
    userMetadata: {},
    bannedUntil: null,
    isAnonymous: false,
    deletedAt: null,
    updatedAt: fields.createdAt,
    ...fields,
  };
}
