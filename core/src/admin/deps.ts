import type {
  AuditLog,
  IdentityRepository,
  LeakedPasswords,
  PasswordHasher,
  SignInFailures,
  UserRepository,
} from "../accounts/index.js";
import type { HookDispatcher } from "../hooks/index.js";
import type { DeliveryQueue, KernelDeps, Transactor } from "../kernel/index.js";
import type { Mailer, OneTimeTokenStore, SendQuota, SmsSender } from "../messaging/index.js";
import type { ChallengeStore, FactorStore, SessionAssurance } from "../mfa/index.js";
import type { FlowStateStore } from "../pkce/index.js";
import type { SessionStore, TokenSigner } from "../sessions/index.js";

/** Admin use cases touch every table (a ban revokes sessions, an invite sends a mail, a soft delete drops factors). */
export interface AdminRepositories {
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
  readonly signInFailures: SignInFailures;
}

export type AdminStore = AdminRepositories & Transactor<AdminRepositories>;

/** The ports the admin use cases may use. */
export interface AdminDeps extends KernelDeps {
  readonly store: AdminStore;
  readonly hasher: PasswordHasher;
  /** The leaked-password corpus new passwords are checked against (`PASSWORD_HIBP_*`). */
  readonly leakedPasswords: LeakedPasswords;
  readonly signer: TokenSigner;
  readonly mailer: Mailer;
  readonly sms: SmsSender;
  readonly deliveries: DeliveryQueue;
  /** Optional where a use case runs hooks: unit tests without it run none. */
  readonly hooks: HookDispatcher;
}
