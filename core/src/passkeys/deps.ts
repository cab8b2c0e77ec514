import type { AuditLog, IdentityRepository, UserFactors, UserRepository } from "../accounts/index.js";
import type { HookDispatcher } from "../hooks/index.js";
import type { KernelDeps, KernelSettings, Transactor } from "../kernel/index.js";
import type { SessionStore, SessionsSettings, TokenSigner } from "../sessions/index.js";
import type { PasskeyStore, WebauthnChallengeStore } from "./ports/passkey-store.js";
import type { WebAuthn } from "./ports/webauthn.js";
import type { PasskeysSliceSettings } from "./settings.js";

/** The repositories passkeys use: users, their factors and sessions, passkeys and their challenges. */
export interface PasskeysRepositories {
  readonly users: UserRepository;
  readonly identities: IdentityRepository;
  readonly audit: AuditLog;
  readonly factors: UserFactors;
  readonly sessions: SessionStore;
  readonly passkeys: PasskeyStore;
  readonly webauthnChallenges: WebauthnChallengeStore;
}

export type PasskeysStore = PasskeysRepositories & Transactor<PasskeysRepositories>;

/** The ports the passkey use cases may use. */
export interface PasskeysDeps extends KernelDeps {
  readonly settings: KernelSettings & SessionsSettings & PasskeysSliceSettings;
  readonly store: PasskeysStore;
  readonly signer: TokenSigner;
  readonly webauthn: WebAuthn;
  /** Optional where a use case runs hooks: unit tests without it run none. */
  readonly hooks: HookDispatcher;
}
