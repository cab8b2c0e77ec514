import type {
  AuditLog,
  IdentityRepository,
  LeakedPasswords,
  PasswordHasher,
  UserFactors,
  UserRepository,
} from "../accounts/index.js";
import type { DeliveryQueue, KernelDeps, KernelSettings, Transactor } from "../kernel/index.js";
import type {
  Mailer,
  MessagingSliceSettings,
  OneTimeTokenStore,
  SendQuota,
  SmsSender,
} from "../messaging/index.js";
import type { FlowStateStore } from "../pkce/index.js";
import type { SessionStore } from "../sessions/index.js";
import type { AccountSettingsSettings } from "./settings.js";

/** The repositories of the changes a signed-in user makes: their user row, the confirmations of a new address, the nonce of reauthentication. */
export interface AccountSettingsRepositories {
  readonly users: UserRepository;
  readonly identities: IdentityRepository;
  readonly audit: AuditLog;
  readonly factors: UserFactors;
  readonly sessions: SessionStore;
  readonly flowStates: FlowStateStore;
  readonly oneTimeTokens: OneTimeTokenStore;
  readonly quota: SendQuota;
}

export type AccountSettingsStore = AccountSettingsRepositories & Transactor<AccountSettingsRepositories>;

/** The ports the account-settings use cases may use. */
export interface AccountSettingsDeps extends KernelDeps {
  readonly settings: KernelSettings & AccountSettingsSettings & MessagingSliceSettings;
  readonly store: AccountSettingsStore;
  readonly hasher: PasswordHasher;
  /** The leaked-password corpus new passwords are checked against (`PASSWORD_HIBP_*`). */
  readonly leakedPasswords: LeakedPasswords;
  readonly mailer: Mailer;
  readonly sms: SmsSender;
  /** Where the account-change notifications leave, after the answer. */
  readonly deliveries: DeliveryQueue;
}
