/** The OAuth 2.1 / OpenID Connect server: clients, authorization requests, consents and their tokens. */
export {
  type ApprovalAuthentication,
  type DeviceRequest,
  OAUTH_SCOPES,
  type OAuthAuthorization,
  type OAuthConsent,
  scopesOf,
} from "./authorization.js";
export { REQUEST_URI_PREFIX, startAuthorization } from "./authorize.js";
export * from "./backchannel-logout.js";
export {
  type ClientAuthMethod,
  type ClientJwks,
  type ClientType,
  clientIdOf,
  DEVICE_CODE_GRANT_TYPE,
  type OAuthClient,
  type OAuthGrantType,
  TOKEN_EXCHANGE_GRANT,
} from "./client.js";
export * from "./client-auth.js";
export { clientCredentialsGrant } from "./client-credentials.js";
export * from "./client-metadata-document.js";
export {
  type ClientFields,
  deleteClient,
  findClient,
  listClients,
  regenerateClientSecret,
  registerClient,
  updateClient,
} from "./clients.js";
export { authorizationDetails, decideConsent } from "./consent.js";
export * from "./device.js";
export { deviceCodeGrant, pollDeviceCode } from "./device-grant.js";
export * from "./end-session.js";
export * from "./id-token.js";
export * from "./logout-metadata.js";
export type * from "./ports/client-assertion-verifier.js";
export type * from "./ports/client-metadata-documents.js";
export type * from "./ports/id-token-signer.js";
export type * from "./ports/logout-deliveries.js";
export type {
  OAuthAuthorizationStore,
  OAuthClientAssertionStore,
  OAuthClientStore,
  OAuthConsentStore,
  OAuthPushedRequest,
  OAuthPushedRequestStore,
  OAuthScopeStore,
} from "./ports/oauth-store.js";
export * from "./pushed-requests.js";
export * from "./query.js";
export {
  defineScope,
  deleteScope,
  knownScopes,
  listScopes,
  type OAuthScope,
} from "./scopes.js";
export type {
  ClientMetadataDocumentSettings,
  OAuthDeviceSettings,
  OAuthServerSliceSettings,
} from "./settings.js";
export {
  ACCESS_TOKEN_TYPE,
  exchangeToken,
  type TokenExchange,
  tokenExchangeGrant,
} from "./token-exchange.js";
export {
  authorizationCodeGrant,
  clientRefreshTokenGrant,
  type OAuthTokens,
  type TokenRequestBinding,
} from "./token-grants.js";
export * from "./token-introspection.js";
export { listConsents, revokeConsent } from "./user-consents.js";
