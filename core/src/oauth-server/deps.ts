import type { AuditLog, IdentityRepository, UserFactors, UserRepository } from "../accounts/index.js";
import type { HookDispatcher } from "../hooks/index.js";
import type { KernelDeps, KernelSettings, Transactor } from "../kernel/index.js";
import type { SecretBox } from "../mfa/index.js";
import type { SessionStore, SessionsSettings, TokenSigner } from "../sessions/index.js";
import type { ClientAssertionVerifier } from "./ports/client-assertion-verifier.js";
import type { ClientMetadataDocuments } from "./ports/client-metadata-documents.js";
import type { IdTokenSigner } from "./ports/id-token-signer.js";
import type {
  OAuthAuthorizationStore,
  OAuthClientAssertionStore,
  OAuthClientStore,
  OAuthConsentStore,
  OAuthPushedRequestStore,
  OAuthScopeStore,
} from "./ports/oauth-store.js";
import type { OAuthServerSliceSettings } from "./settings.js";

/** The repositories of the OAuth server: its clients, requests and consents, and the sessions it issues. */
export interface OAuthServerRepositories {
  readonly users: UserRepository;
  readonly identities: IdentityRepository;
  readonly factors: UserFactors;
  readonly audit: AuditLog;
  readonly sessions: SessionStore;
  readonly oauthClients: OAuthClientStore;
  readonly oauthAuthorizations: OAuthAuthorizationStore;
  readonly oauthConsents: OAuthConsentStore;
  readonly oauthPushedRequests: OAuthPushedRequestStore;
  readonly oauthClientAssertions: OAuthClientAssertionStore;
  readonly oauthScopes: OAuthScopeStore;
}

export type OAuthServerStore = OAuthServerRepositories & Transactor<OAuthServerRepositories>;

/** The ports the OAuth server's use cases may use. */
export interface OAuthServerDeps extends Omit<KernelDeps, "settings"> {
  readonly store: OAuthServerStore;
  readonly signer: TokenSigner;
  readonly idTokens: IdTokenSigner;
  /** Checks the signatures of client assertions (`private_key_jwt`, `client_secret_jwt`). */
  readonly clientAssertions: ClientAssertionVerifier;
  /** Seals the secret of a `client_secret_jwt` client (the MFA secrets' box). */
  readonly clientSecretBox: SecretBox;
  /** Optional where a use case runs hooks: unit tests without it run none. */
  readonly hooks?: HookDispatcher;
  /** Fetches client ID metadata documents; absent (unit tests without it): a URL is no client. */
  readonly clientDocuments?: ClientMetadataDocuments;
  readonly settings: KernelSettings & SessionsSettings & OAuthServerSliceSettings;
}
