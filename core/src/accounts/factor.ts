/** The kinds of second factor offered (WebAuthn is not). */
export type FactorType = "totp" | "phone";

/**
 * A second factor of a user (`mfa_factors`). It is part of the user record the reference serialises
 * (`factors` in the user JSON), so its type lives with the user; the MFA slice owns what changes it.
 */
export interface Factor {
  readonly id: string;
  readonly userId: string;
  /** "" when none was given. */
  readonly friendlyName: string;
  readonly factorType: FactorType;
  readonly status: "unverified" | "verified";
  /** TOTP only: the shared secret, sealed (encrypted) by the `SecretBox` port; never sent back. */
  readonly secret: string | null;
  /** Phone only: E.164 digits without `+`. */
  readonly phone: string | null;
  readonly createdAt: Date;
  readonly updatedAt: Date;
  readonly lastChallengedAt: Date | null;
}
