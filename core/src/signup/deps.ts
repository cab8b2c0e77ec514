import type {
  AuditLog,
  IdentityRepository,
  LeakedPasswords,
  PasswordHasher,
  UserFactors,
  UserRepository,
} from "../accounts/index.js";
import type { HookDispatcher } from "../hooks/index.js";
import type { DeliveryQueue, KernelDeps, Transactor } from "../kernel/index.js";
import type { Mailer, OneTimeTokenStore, SendQuota, SmsSender } from "../messaging/index.js";
import type { FlowStateStore } from "../pkce/index.js";
import type { SessionStore, TokenSigner } from "../sessions/index.js";

/** The repositories of sign-up: the users it creates, the confirmation it sends, the session it may start. */
export interface SignupRepositories {
  readonly users: UserRepository;
  readonly identities: IdentityRepository;
  readonly audit: AuditLog;
  readonly factors: UserFactors;
  readonly sessions: SessionStore;
  readonly flowStates: FlowStateStore;
  readonly oneTimeTokens: OneTimeTokenStore;
  readonly quota: SendQuota;
}

export type SignupStore = SignupRepositories & Transactor<SignupRepositories>;

/** The ports the signup use cases may use. */
export interface SignupDeps extends KernelDeps {
  readonly store: SignupStore;
  readonly hasher: PasswordHasher;
  /** The leaked-password corpus new passwords are checked against (`PASSWORD_HIBP_*`). */
  readonly leakedPasswords: LeakedPasswords;
  readonly signer: TokenSigner;
  readonly mailer: Mailer;
  readonly sms: SmsSender;
  /** Where the mail that must not reveal an address's account goes after the answer. */
  readonly deliveries: DeliveryQueue;
  /** Optional where a use case runs hooks: unit tests without it run none. */
  readonly hooks: HookDispatcher;
}
