import type { FailureCatalogue } from "../kernel/index.js";

/** The OAuth server slice's failures (composed with the others' in core/src/failures.ts). */
export const oauthServerFailures = {
  oauthServerDisabled: ["feature_disabled", "OAuth server is disabled"],
  dynamicRegistrationDisabled: [
    "oauth_dynamic_client_registration_disabled",
    "Dynamic client registration is not enabled",
  ],
  // Client registration and administration (GoTrue envelope)
  clientFieldInvalid: ["validation_failed", (problem: string) => problem],
  clientNotFound: ["oauth_client_not_found", "OAuth client not found"],
  clientIdMalformed: ["validation_failed", "Invalid client ID format"],
  clientUpdateEmpty: ["validation_failed", "No fields provided for update"],
  clientNotConfidential: ["validation_failed", "Cannot regenerate secret for public client"],
  // Custom scopes (admin API, GoTrue envelope)
  scopeFieldInvalid: ["validation_failed", (problem: string) => problem],
  scopeExists: ["conflict", "A scope of that name already exists"],
  scopeNotFound: ["not_found", "Scope not found"],
  // GET /oauth/authorize before the redirect URI is trusted (GoTrue envelope)
  authorizeClientIdMissing: ["validation_failed", "client_id is required"],
  authorizeRedirectUriMissing: ["validation_failed", "redirect_uri is required"],
  authorizeClientNotFound: ["oauth_client_not_found", "invalid client_id"],
  authorizeRedirectUriUnregistered: ["validation_failed", "invalid redirect_uri"],
  // … and after it: redirected to an admin-created client (`error=…`), answered to the browser for a dynamic one
  authorizeRequestInvalid: ["invalid_request", (problem: string) => problem],
  logoutRequestInvalid: ["invalid_request", (problem: string) => problem],
  authorizeGrantTypeMissing: ["unauthorized_client", "client may not use the authorization code grant"],
  authorizeResourceNotAllowed: ["invalid_target", "resource is not served by this authorization server"],
  authorizeScopeInvalid: ["invalid_scope", (problem: string) => problem],
  authorizationPathMissing: ["server_error", "oauth authorization path not configured"],
  // Pushed authorization requests (RFC 9126), answered as OAuth error bodies
  pushedRequestUriInvalid: [
    "invalid_request",
    "request_uri is unknown, expired, already used or pushed by another client",
  ],
  pushedRequestRequired: [
    "invalid_request",
    "pushed authorization requests are required: push the request to /oauth/par and send its request_uri",
  ],
  pushedRequestClientMismatch: ["invalid_request", "client_id is not the authenticated client"],
  pushedRequestRedirectUriInvalid: ["invalid_request", "redirect_uri is missing or not registered"],
  pushedRequestUriPushed: ["invalid_request", "request_uri must not be pushed"],
  pushedRequestObjectUnsupported: ["invalid_request", "request objects (request) are not supported"],
  pushedRequestDpopKeyMismatch: [
    "invalid_dpop_proof",
    "Invalid DPoP proof: dpop_jkt is not the thumbprint of the proof's key (RFC 9449 §10.1)",
  ],
  // A client ID metadata document (a URL as client_id): OAuth error bodies wherever it is looked up
  clientDocumentRefused: [
    "invalid_client",
    (problem: string) => `client metadata document refused: ${problem}`,
  ],
  clientDocumentUnavailable: [
    "invalid_client",
    (problem: string) => `client metadata document could not be fetched: ${problem}`,
  ],
  clientDocumentNotEditable: [
    "validation_failed",
    "A client metadata document's client is changed by its document, not by the admin API",
  ],
  // Consent
  requestOriginUnauthorized: ["validation_failed", "unauthorized request origin"],
  authorizationNotFound: ["oauth_authorization_not_found", "authorization not found"],
  authorizationExpired: ["oauth_authorization_not_found", "authorization request has expired"],
  authorizationNotPending: ["validation_failed", "authorization request cannot be processed"],
  consentActionInvalid: ["validation_failed", "action must be 'approve' or 'deny'"],
  consentNotFound: ["oauth_consent_not_found", "No active grant found for this client"],
  consentClientIdMissing: ["validation_failed", "client_id is required"],
  // POST /oauth/token client authentication (GoTrue envelope, as the reference)
  clientCredentialsInvalid: ["invalid_credentials", "Invalid client credentials"],
  clientIdRequired: ["invalid_credentials", "client_id is required"],
  clientAuthMethodMismatch: [
    "invalid_credentials",
    (method: string) => `Client authentication method mismatch: registered ${method}`,
  ],
  // POST /oauth/token, /oauth/revoke, /oauth/introspect (OAuth error bodies)
  tokenGrantTypeMissing: ["invalid_request", "grant_type is required"],
  tokenGrantTypeUnsupported: ["unsupported_grant_type", (type: string) => `Unsupported grant type: ${type}`],
  tokenGrantTypeNotAllowed: [
    "unauthorized_client",
    (type: string) => `Client is not allowed the grant type: ${type}`,
  ],
  tokenCodeMissing: ["invalid_request", "code is required"],
  tokenRefreshTokenMissing: ["invalid_request", "refresh_token is required"],
  tokenTokenMissing: ["invalid_request", "token is required"],
  codeInvalid: ["invalid_grant", "Invalid or expired authorization code"],
  codeExpired: ["invalid_grant", "Authorization code has expired"],
  codeOfAnotherClient: ["invalid_grant", "Authorization code was issued to another client"],
  codeRedirectUriMismatch: ["invalid_grant", "redirect_uri does not match the authorization request"],
  codeResourceMismatch: ["invalid_grant", "resource does not match the authorization request"],
  codeDpopProofMissing: [
    "invalid_grant",
    "Authorization code is bound to a DPoP key (dpop_jkt): the token request needs a proof of that key",
  ],
  codeDpopKeyMismatch: ["invalid_grant", "Authorization code is bound to another DPoP key (dpop_jkt)"],
  codeVerifierMissing: ["invalid_grant", "PKCE verification failed: code_verifier is required"],
  codeVerifierWrong: ["invalid_grant", "PKCE verification failed: code_verifier does not match"],
  codeUserGone: ["invalid_grant", "User not found"],
  codeUserBanned: ["access_denied", "User is banned"],
  refreshTokenInvalid: ["invalid_grant", "Invalid refresh token"],
  refreshOfAnotherClient: ["invalid_client", "Client does not match the session's OAuth client"],
  refreshOfFirstPartySession: ["invalid_client", "Client authentication not allowed for non-OAuth session"],
  idTokenKeyMissing: [
    "server_error",
    "Error generating ID token: an asymmetric signing key (JWT_KEYS) is required",
  ],
  // grant_type=client_credentials (RFC 6749 §4.4)
  clientCredentialsNeedConfidentialClient: [
    "unauthorized_client",
    "client_credentials is for confidential clients only",
  ],
  tokenScopeInvalid: ["invalid_scope", (problem: string) => problem],
  tokenResourceInvalid: ["invalid_target", (problem: string) => problem],
  // RFC 7009 §2.2.1: a client's own token names no session, and a self-contained JWT cannot be revoked
  machineTokenNotRevocable: [
    "unsupported_token_type",
    "a client_credentials access token cannot be revoked: it is valid until it expires",
  ],
  introspectionNeedsConfidentialClient: [
    "invalid_client",
    "Token introspection requires a confidential client",
  ],
  // POST /oauth/token, grant_type=urn:ietf:params:oauth:grant-type:token-exchange (RFC 8693 §2.2.2)
  exchangeNeedsConfidentialClient: ["unauthorized_client", "Token exchange requires a confidential client"],
  exchangeSubjectTokenMissing: ["invalid_request", "subject_token is required"],
  exchangeSubjectTokenTypeMissing: ["invalid_request", "subject_token_type is required"],
  exchangeSubjectTokenTypeUnsupported: [
    "invalid_request",
    "subject_token_type must be urn:ietf:params:oauth:token-type:access_token",
  ],
  exchangeActorTokenTypeMissing: ["invalid_request", "actor_token_type is required with actor_token"],
  exchangeActorTokenMissing: ["invalid_request", "actor_token_type was sent without actor_token"],
  exchangeActorTokenTypeUnsupported: [
    "invalid_request",
    "actor_token_type must be urn:ietf:params:oauth:token-type:access_token",
  ],
  exchangeRequestedTokenTypeUnsupported: [
    "invalid_request",
    "requested_token_type must be urn:ietf:params:oauth:token-type:access_token",
  ],
  exchangeImpersonateInvalid: ["invalid_request", "impersonate must be 'true' or 'false'"],
  exchangeTargetMissing: ["invalid_request", "resource or audience is required"],
  exchangeResourceInvalid: ["invalid_target", "resource must be an absolute URI without a fragment"],
  exchangeTargetRefused: [
    "invalid_target",
    (target: string) => `The client may not obtain tokens for '${target}'`,
  ],
  exchangeSubjectTokenInvalid: ["invalid_request", "subject_token is invalid or expired"],
  exchangeSubjectIdToken: ["invalid_request", "An ID token is not an access token and cannot be exchanged"],
  exchangeSubjectNotClientToken: [
    "invalid_request",
    "subject_token must be an access token issued to an OAuth client",
  ],
  exchangeSubjectOfAnotherClient: ["invalid_request", "subject_token was issued to another client"],
  exchangeSubjectSessionEnded: ["invalid_request", "The session of subject_token has ended"],
  exchangeSubjectUserGone: ["invalid_request", "The user of subject_token no longer exists"],
  exchangeActorTokenInvalid: ["invalid_request", "actor_token is invalid or expired"],
  exchangeActorNotClientToken: [
    "invalid_request",
    "actor_token must be a live access token issued to an OAuth client",
  ],
  exchangeScopeWidened: ["invalid_scope", "scope must be within the scopes of subject_token"],
  exchangeImpersonationRefused: ["unauthorized_client", "The client may not impersonate users"],
  exchangeImpersonationWithActor: ["invalid_request", "Impersonation takes no actor_token"],
  exchangeImpersonationOfDelegation: [
    "invalid_request",
    "A delegated token (with an act claim) cannot be exchanged for impersonation",
  ],
  // GET /oauth/userinfo
  userinfoTokenInvalid: ["bad_jwt", "invalid access token"],
} as const satisfies FailureCatalogue;
