/** The kinds of second factor offered; `recovery_code` is a set of single-use codes, never a sole factor. */
export type FactorType = "totp" | "phone" | "webauthn" | "recovery_code";

/**
 * A WebAuthn factor's credential, once its registration verified: what its assertions are checked
 * against. Byte strings as base64url.
 */
export interface FactorCredential {
  readonly credentialId: string;
  readonly publicKey: string;
  readonly attestationType: string;
  readonly aaguid: string | null;
  readonly signCount: number;
  readonly transports: readonly string[];
  readonly backupEligible: boolean;
  readonly backedUp: boolean;
}

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
  /**
   * WebAuthn only, once verified: its credential. Absent where a factor is read from the user's
   * snapshot (a user body never shows it).
   */
  readonly webauthnCredential?: FactorCredential | null;
}
