import type { AuditLog, IdentityRepository, UserFactors, UserRepository } from "../accounts/index.js";
import type { DeliveryQueue, KernelDeps, Transactor } from "../kernel/index.js";
import type { Mailer, OneTimeTokenStore, SendQuota } from "../messaging/index.js";
import type { FlowStateStore } from "../pkce/index.js";
import type { SessionStore } from "../sessions/index.js";

/** The repositories of recovery: the user who asked, the token it mails, the flow state of a PKCE link. */
export interface RecoveryRepositories {
  readonly users: UserRepository;
  readonly identities: IdentityRepository;
  readonly audit: AuditLog;
  readonly factors: UserFactors;
  readonly sessions: SessionStore;
  readonly flowStates: FlowStateStore;
  readonly oneTimeTokens: OneTimeTokenStore;
  readonly quota: SendQuota;
}

export type RecoveryStore = RecoveryRepositories & Transactor<RecoveryRepositories>;

/** The ports the recovery use cases may use. */
export interface RecoveryDeps extends KernelDeps {
  readonly store: RecoveryStore;
  readonly mailer: Mailer;
  /** Where the mail that must not reveal an address's account goes after the answer. */
  readonly deliveries: DeliveryQueue;
}
