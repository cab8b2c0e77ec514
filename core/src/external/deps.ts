import type {
  AuditLog,
  IdentityRepository,
  PasswordHasher,
  UserFactors,
  UserRepository,
} from "../accounts/index.js";
import type { HookDispatcher } from "../hooks/index.js";
import type { DeliveryQueue, KernelDeps, KernelSettings, Transactor } from "../kernel/index.js";
import type { Mailer, OneTimeTokenStore, SendQuota, SmsSender } from "../messaging/index.js";
import type { FlowStateStore } from "../pkce/index.js";
import type { SessionStore, TokenSigner } from "../sessions/index.js";
import type { ExternalIdentityStore } from "./ports/external-identities.js";
import type { ExternalProviders } from "./ports/external-provider.js";
import type { ExternalSettings } from "./settings.js";

/**
 * The repositories of external sign-in: identity lookups, the flow states of the redirect, the users
 * and sessions it creates, and the one-time tokens of the confirmation mail an unverified address gets.
 */
export interface ExternalRepositories {
  readonly users: UserRepository;
  readonly identities: IdentityRepository;
  readonly audit: AuditLog;
  readonly factors: UserFactors;
  readonly sessions: SessionStore;
  readonly flowStates: FlowStateStore;
  readonly oneTimeTokens: OneTimeTokenStore;
  readonly quota: SendQuota;
  readonly externalIdentities: ExternalIdentityStore;
}

export type ExternalStore = ExternalRepositories & Transactor<ExternalRepositories>;

/** The ports the external sign-in use cases may use. */
export interface ExternalDeps extends KernelDeps {
  readonly settings: KernelSettings & ExternalSettings;
  readonly store: ExternalStore;
  readonly hasher: PasswordHasher;
  readonly signer: TokenSigner;
  readonly mailer: Mailer;
  readonly sms: SmsSender;
  readonly deliveries: DeliveryQueue;
  readonly providers: ExternalProviders;
  /** Optional where a use case runs hooks: unit tests without it run none. */
  readonly hooks: HookDispatcher;
}
