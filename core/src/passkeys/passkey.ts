/**
 * A passkey of a user (`webauthn_credentials`): a WebAuthn credential that signs the user in on its
 * own. Byte strings (credential id, COSE public key) travel through core as base64url text.
 */
export interface Passkey {
  readonly id: string;
  readonly userId: string;
  /** The credential id the authenticator chose, base64url; unique across all users. */
  readonly credentialId: string;
  /** The credential's COSE public key, base64url. */
  readonly publicKey: string;
  /** The attestation statement format the registration carried (`none`, `packed`, …). */
  readonly attestationType: string;
  /** The authenticator model's AAGUID; null when it gave none (all zeros). */
  readonly aaguid: string | null;
  /** The authenticator's signature counter as last seen (0 for authenticators that keep none). */
  readonly signCount: number;
  readonly transports: readonly string[];
  /** Whether the credential may be synced to other devices (the BE flag at registration). */
  readonly backupEligible: boolean;
  /** Whether it was synced (the BS flag), as last seen. */
  readonly backedUp: boolean;
  readonly friendlyName: string;
  readonly createdAt: Date;
  readonly updatedAt: Date;
  readonly lastUsedAt: Date | null;
}

/** What a challenge was made for: adding a passkey to a signed-in user, or signing in with one. */
export type WebauthnChallengeType = "registration" | "authentication";

/** What a ceremony's answer is compared with: the challenge sent, and the user verification asked. */
export interface CeremonyState {
  /** base64url. */
  readonly challenge: string;
  /** `required`, `preferred`, `discouraged`, or "" when the options asked nothing. */
  readonly userVerification: string;
}

/** A challenge of a passkey ceremony (`webauthn_challenges`): used once, then gone. */
export interface WebauthnChallenge {
  readonly id: string;
  /** The user adding a passkey; null for a sign-in (the passkey tells who it is). */
  readonly userId: string | null;
  readonly type: WebauthnChallengeType;
  readonly state: CeremonyState;
  readonly createdAt: Date;
  readonly expiresAt: Date;
}
