import type { AuditLog, IdentityRepository, UserFactors, UserRepository } from "../accounts/index.js";
import type { ExternalIdentityStore } from "../external/index.js";
import type { RequestLimiter } from "../guards/index.js";
import type { HookDispatcher } from "../hooks/index.js";
import type { KernelDeps, KernelSettings, Transactor } from "../kernel/index.js";
import type { FlowStateStore } from "../pkce/index.js";
import type { SessionStore, TokenSigner } from "../sessions/index.js";
import type { MetadataFetcher, SamlServiceProvider } from "./ports/saml.js";
import type { RelayStateStore, SsoProviderStore } from "./ports/sso-providers.js";
import type { SsoSettings } from "./settings.js";

/** The repositories an SSO sign-in writes in its transaction: the account, its session or code. */
export interface SsoRepositories {
  readonly users: UserRepository;
  readonly identities: IdentityRepository;
  readonly audit: AuditLog;
  readonly factors: UserFactors;
  readonly sessions: SessionStore;
  readonly flowStates: FlowStateStore;
  readonly externalIdentities: ExternalIdentityStore;
}

export type SsoStore = SsoRepositories & Transactor<SsoRepositories>;

/** The ports the SSO use cases may use. */
export interface SsoDeps extends KernelDeps {
  readonly settings: KernelSettings & SsoSettings;
  readonly store: SsoStore;
  readonly signer: TokenSigner;
  readonly hooks: HookDispatcher;
  readonly ssoProviders: SsoProviderStore;
  readonly relayStates: RelayStateStore;
  /** The SAML protocol: metadata, requests, response verification. */
  readonly saml: SamlServiceProvider;
  readonly samlMetadata: MetadataFetcher;
  /**
   * One take per assertion ID, shared by every instance: a second take while the first is remembered
   * is refused, so a captured response signs in once even without a relay state.
   */
  readonly samlAssertions: RequestLimiter;
}
