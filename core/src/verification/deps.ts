import type {
  AuditLog,
  IdentityRepository,
  LeakedPasswords,
  PasswordHasher,
  SignInFailures,
  UserFactors,
  UserRepository,
} from "../accounts/index.js";
import type { DeliveryQueue, KernelDeps, Transactor } from "../kernel/index.js";
import type { Mailer, OneTimeTokenStore, SendQuota, SmsSender } from "../messaging/index.js";
import type { FlowStateStore } from "../pkce/index.js";
import type { SessionStore, TokenSigner } from "../sessions/index.js";

/**
 * The repositories verification uses: one-time tokens and send counters, the users whose addresses
 * they prove, and the sessions and PKCE flow states a verified token hands over.
 */
export interface VerificationRepositories {
  readonly users: UserRepository;
  readonly identities: IdentityRepository;
  readonly audit: AuditLog;
  readonly factors: UserFactors;
  readonly sessions: SessionStore;
  readonly flowStates: FlowStateStore;
  readonly oneTimeTokens: OneTimeTokenStore;
  /**
   * Send counters shared by all instances. Taken through the store itself (one atomic statement of its
   * own, after the change committed), never inside a use case's transaction: a row lock on a counter
   * every send shares must not last longer than that statement.
   */
  readonly quota: SendQuota;
}

export type VerificationStore = VerificationRepositories & Transactor<VerificationRepositories>;

/** What `/verify` uses beside them: the lockout's counters, which a proven address clears. */
export interface VerifyRepositories extends VerificationRepositories {
  readonly signInFailures: SignInFailures;
}

export type VerifyStore = VerifyRepositories & Transactor<VerifyRepositories>;

/** The ports the verification use cases may use. */
export interface VerificationDeps extends KernelDeps {
  readonly store: VerificationStore;
  readonly hasher: PasswordHasher;
  /** The leaked-password corpus new passwords are checked against (`PASSWORD_HIBP_*`). */
  readonly leakedPasswords: LeakedPasswords;
  readonly signer: TokenSigner;
  readonly mailer: Mailer;
  readonly sms: SmsSender;
  /** Where the mail of the endpoints that must not reveal an address's account goes after the answer. */
  readonly deliveries: DeliveryQueue;
}
