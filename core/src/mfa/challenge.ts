import type { CeremonyState } from "../passkeys/index.js";

/** A challenge of a factor (`mfa_challenges`): what a verification answers. */
export interface Challenge {
  readonly id: string;
  readonly factorId: string;
  readonly createdAt: Date;
  readonly verifiedAt: Date | null;
  /** The address that asked for it: only that address may verify it. */
  readonly ipAddress: string;
  /** Phone only: the code texted, sealed by the `SecretBox` port. */
  readonly otpCode: string | null;
  /** Codes tried against it: past the limit it takes none (guessing is bounded per challenge). */
  readonly attempts: number;
  /** WebAuthn only: what the answer to its options is checked against. */
  readonly webauthnState?: CeremonyState | null;
}
