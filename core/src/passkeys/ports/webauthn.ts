import type { CeremonyState } from "../passkey.js";

/** The relying party: this server as WebAuthn names it (`WEBAUTHN_RP_*`). */
export interface RelyingParty {
  /** The domain credentials are scoped to (`localhost`, `example.com`). */
  readonly id: string;
  readonly name: string;
  /** The exact origins a ceremony may come from (`https://app.example.com`). */
  readonly origins: readonly string[];
}

/** The account as the authenticator stores it; `id` is the user's id, sent as its UTF-8 bytes. */
export interface WebAuthnAccount {
  readonly id: string;
  readonly name: string;
  readonly displayName: string;
}

/** A credential named in options (to exclude, or to allow), by its base64url id. */
export interface CredentialRef {
  readonly id: string;
  readonly transports: readonly string[];
}

/**
 * Which options to make: `passkey` asks for a discoverable credential, user verification preferred and
 * no attestation (the reference's passkey instance); `mfa` asks nothing of the kind (its MFA instance).
 */
export type CeremonyFlavour = "passkey" | "mfa";

/** Options for the browser (`PublicKeyCredential*OptionsJSON`) and the state to check the answer with. */
export interface Ceremony {
  readonly options: Readonly<Record<string, unknown>>;
  readonly state: CeremonyState;
}

/** A credential a registration proved: what is stored to check its later assertions. */
export interface RegisteredCredential {
  readonly credentialId: string;
  readonly publicKey: string;
  readonly attestationType: string;
  readonly aaguid: string | null;
  readonly signCount: number;
  readonly transports: readonly string[];
  readonly backupEligible: boolean;
  readonly backedUp: boolean;
}

/** The stored credential an assertion is checked against. */
export interface KnownCredential {
  readonly credentialId: string;
  readonly publicKey: string;
  readonly signCount: number;
  readonly transports: readonly string[];
}

/** What a verified assertion tells. */
export interface AssertedUse {
  readonly signCount: number;
  readonly backupEligible: boolean;
  readonly backedUp: boolean;
}

/** Who an assertion claims to be, read before it is verified. */
export interface AssertionClaim {
  readonly credentialId: string;
  /** The user handle, decoded as UTF-8 text (a user id); null when absent or not text. */
  readonly userHandle: string | null;
}

/** A verification's outcome: what it proved, or why it refused (for logs, not for the client). */
export type Verified<T> =
  | { readonly ok: true; readonly value: T }
  | { readonly ok: false; readonly reason: string };

/**
 * WebAuthn ceremonies: options and the verification of attestations and assertions (a library's
 * work — signatures, attestation formats, client data, authenticator flags).
 */
export interface WebAuthn {
  /** Options to create a credential for `account`, never one of `exclude` again. */
  creationOptions(input: {
    rp: RelyingParty;
    account: WebAuthnAccount;
    exclude: readonly CredentialRef[];
    flavour: CeremonyFlavour;
  }): Promise<Ceremony>;
  /** Options to sign with a credential: one of `allow`, or any discoverable one when it is empty. */
  requestOptions(input: {
    rp: RelyingParty;
    allow: readonly CredentialRef[];
    flavour: CeremonyFlavour;
  }): Promise<Ceremony>;
  /** Verifies a registration response (any JSON the client sent) against the ceremony's state. */
  verifyRegistration(
    rp: RelyingParty,
    state: CeremonyState,
    response: unknown,
  ): Promise<Verified<RegisteredCredential>>;
  /** The credential id and user handle an authentication response claims; null when it is malformed. */
  readAssertion(response: unknown): AssertionClaim | null;
  /** Verifies an authentication response with `credential`'s public key and counter. */
  verifyAssertion(
    rp: RelyingParty,
    state: CeremonyState,
    response: unknown,
    credential: KnownCredential,
  ): Promise<Verified<AssertedUse>>;
  /** The authenticator model's name for an AAGUID, or `Passkey` when it is unknown or absent. */
  authenticatorName(aaguid: string | null): string;
}
