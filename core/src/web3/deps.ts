import type { AuditLog, IdentityRepository, UserFactors, UserRepository } from "../accounts/index.js";
import type { ExternalIdentityStore, ExternalSettings } from "../external/index.js";
import type { RequestLimiter } from "../guards/index.js";
import type { HookDispatcher } from "../hooks/index.js";
import type { KernelDeps, KernelSettings, Transactor } from "../kernel/index.js";
import type { Mailer, OneTimeTokenStore, SendQuota } from "../messaging/index.js";
import type { FlowStateStore } from "../pkce/index.js";
import type { SessionStore, TokenSigner } from "../sessions/index.js";
import type { WalletSignatures } from "./ports/wallet-signatures.js";
import type { Web3Settings } from "./settings.js";

/** The repositories of Web3 sign-in: those of the external sign-in whose account steps it runs. */
export interface Web3Repositories {
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

export type Web3Store = Web3Repositories & Transactor<Web3Repositories>;

/** The ports the Web3 use cases may use. */
export interface Web3Deps extends KernelDeps {
  readonly settings: KernelSettings & ExternalSettings & Web3Settings;
  readonly store: Web3Store;
  readonly signer: TokenSigner;
  readonly mailer: Mailer;
  readonly hooks: HookDispatcher;
  /** Checks the wallet's signature of the message. */
  readonly wallets: WalletSignatures;
  /**
   * One take per signed message, shared by every instance: a second take within the longest time a
   * message is accepted is refused, so a signed message signs in once.
   */
  readonly signedMessages: RequestLimiter;
}
