import type { AuditLog, IdentityRepository, UserFactors, UserRepository } from "../accounts/index.js";
import type { HookDispatcher } from "../hooks/index.js";
import type { DeliveryQueue, KernelDeps, Transactor } from "../kernel/index.js";
import type { Mailer, OneTimeTokenStore, SendQuota, SmsSender } from "../messaging/index.js";
import type { FlowStateStore } from "../pkce/index.js";
import type { SessionStore } from "../sessions/index.js";

/** The repositories of passwordless sign-in: the users it finds or creates, the tokens it sends. */
export interface PasswordlessRepositories {
  readonly users: UserRepository;
  readonly identities: IdentityRepository;
  readonly audit: AuditLog;
  readonly factors: UserFactors;
  readonly sessions: SessionStore;
  readonly flowStates: FlowStateStore;
  readonly oneTimeTokens: OneTimeTokenStore;
  readonly quota: SendQuota;
}

export type PasswordlessStore = PasswordlessRepositories & Transactor<PasswordlessRepositories>;

/** The ports the passwordless use cases may use. */
export interface PasswordlessDeps extends KernelDeps {
  readonly store: PasswordlessStore;
  readonly mailer: Mailer;
  readonly sms: SmsSender;
  /** Where the mail that must not reveal an address's account goes after the answer. */
  readonly deliveries: DeliveryQueue;
  /** Optional where a use case runs hooks: unit tests without it run none. */
  readonly hooks: HookDispatcher;
}
