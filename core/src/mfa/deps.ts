import type { AuditLog, IdentityRepository, PasswordHasher, UserRepository } from "../accounts/index.js";
import type { HookDispatcher } from "../hooks/index.js";
import type { DeliveryQueue, KernelDeps, KernelSettings, Transactor } from "../kernel/index.js";
import type { Mailer, OneTimeTokenStore, SendQuota, SmsSender } from "../messaging/index.js";
import type { PasskeysSliceSettings, WebAuthn } from "../passkeys/index.js";
import type { FlowStateStore } from "../pkce/index.js";
import type { SessionStore, SessionsSettings, TokenSigner } from "../sessions/index.js";
import type { ChallengeStore, FactorStore, SessionAssurance } from "./ports/factor-store.js";
import type { RecoveryCodeStore } from "./ports/recovery-code-store.js";
import type { SecretBox } from "./ports/secret-box.js";
import type { Totp } from "./ports/totp.js";
import type { MfaSliceSettings } from "./settings.js";

/** The repositories MFA uses: factors, challenges, recovery codes, the sessions they raise, the SMS counters. */
export interface MfaRepositories {
  readonly users: UserRepository;
  readonly identities: IdentityRepository;
  readonly audit: AuditLog;
  readonly sessions: SessionStore;
  readonly flowStates: FlowStateStore;
  readonly oneTimeTokens: OneTimeTokenStore;
  readonly quota: SendQuota;
  readonly factors: FactorStore;
  readonly challenges: ChallengeStore;
  readonly assurance: SessionAssurance;
  readonly recoveryCodes: RecoveryCodeStore;
}

export type MfaStore = MfaRepositories & Transactor<MfaRepositories>;

/** The ports the MFA use cases may use. */
export interface MfaDeps extends KernelDeps {
  readonly settings: KernelSettings &
    SessionsSettings &
    MfaSliceSettings &
    Pick<PasskeysSliceSettings, "webauthn">;
  readonly store: MfaStore;
  readonly hasher: PasswordHasher;
  readonly signer: TokenSigner;
  readonly mailer: Mailer;
  readonly sms: SmsSender;
  readonly deliveries: DeliveryQueue;
  readonly totp: Totp;
  readonly secretBox: SecretBox;
  /** WebAuthn factors' ceremonies. */
  readonly webauthn: WebAuthn;
  /** Optional where a use case runs hooks: unit tests without it run none. */
  readonly hooks: HookDispatcher;
}
