import type { FailureCatalogue } from "../kernel/index.js";

/** The sessions slice's failures (composed with the others' in core/src/failures.ts). */
export const sessionsFailures = {
  // Sign-in and sessions
  emailLoginsDisabled: ["email_provider_disabled", "Email logins are disabled"],
  emailPasswordLoginsDisabled: ["email_provider_disabled", "Email logins are disabled"],
  phonePasswordLoginsDisabled: ["phone_provider_disabled", "Phone logins are disabled"],
  phoneProviderUnsupported: ["phone_provider_disabled", "Unsupported phone provider"],
  loginEmailOrPhone: [
    "validation_failed",
    "Only an email address or phone number should be provided on login.",
  ],
  loginEmailOrPhoneMissing: ["validation_failed", "Missing email or phone"],
  invalidCredentials: ["invalid_credentials", "Invalid login credentials"],
  emailNotConfirmed: ["email_not_confirmed", "Email not confirmed"],
  phoneNotConfirmed: ["phone_not_confirmed", "Phone not confirmed"],
  userBanned: ["user_banned", "User is banned"],
  userBannedAtTokenGrant: ["user_banned", "User is banned"],
  refreshTokenNotFound: ["refresh_token_not_found", "Invalid Refresh Token: Refresh Token Not Found"],
  refreshTokenAlreadyUsed: ["refresh_token_already_used", "Invalid Refresh Token: Already Used"],
  // Session controls (SESSIONS_*): refresh refused once a session is over, as the reference words it
  sessionExpired: ["session_expired", "Invalid Refresh Token: Session Expired"],
  sessionInactive: ["session_expired", "Invalid Refresh Token: Session Expired (Inactivity)"],
  sessionRevokedByNewerLogin: [
    "session_expired",
    "Invalid Refresh Token: Session Expired (Revoked by Newer Login)",
  ],
  adminSessionExpired: ["session_expired", "Session is no longer valid"],
  // DELETE /user/sessions/{id} (an extension): not one of the caller's sessions, or malformed
  userSessionNotFound: ["session_not_found", "Session not found"],
  noAuthorization: ["no_authorization", "This endpoint requires a valid Bearer token"],
  jwtUnverifiable: ["bad_jwt", "invalid JWT: unable to parse or verify signature, token is unverifiable"],
  jwtSubMissing: ["bad_jwt", "invalid claim: missing sub claim"],
  jwtSubNotUuid: ["bad_jwt", "invalid claim: sub claim must be a UUID"],
  jwtSessionIdNotUuid: ["bad_jwt", "invalid claim: session_id claim must be a UUID"],
  jwtUserMissing: ["user_not_found", "User from sub claim in JWT does not exist"],
  jwtSessionMissing: ["session_not_found", "Session from session_id claim in JWT does not exist"],
  // A token issued to an OAuth client, anywhere but where the client may act (`/oauth/userinfo`)
  oauthClientTokenRefused: [
    "bad_jwt",
    "an OAuth client's access token is accepted at /oauth/userinfo only, not on the user's account",
  ],
  // An ID token (the OAuth server's, for a client) sent as a bearer token: no endpoint accepts one
  idTokenNotBearer: [
    "bad_jwt",
    "an ID token is not an access token: no endpoint accepts it as a bearer token",
  ],
  // A client's own token (client_credentials): no user is behind it
  machineTokenRefused: [
    "bad_jwt",
    "a client's own token (client_credentials) is not a user's: no user endpoint accepts it",
  ],
  machineTokenNotAdmin: [
    "not_admin",
    "a client's own token (client_credentials) is never an admin credential",
  ],
  // A first-party access token where only an OAuth client's is accepted
  firstPartyTokenRefused: ["bad_jwt", "this endpoint accepts an OAuth client's access token only"],
  // A client's access token on /admin/*, whatever role it carries
  clientTokenNotAdmin: ["not_admin", "an OAuth client's access token is never an admin credential"],
  notAdmin: ["not_admin", "User not allowed"],
  unexpectedAudience: ["unexpected_audience", "Token audience doesn't match request audience"],
  // GET /user answers the same mismatch as a validation failure (the reference's user.go).
  audienceMismatch: ["validation_failed", "Token audience doesn't match request audience"],
  grantTypeUnsupported: ["invalid_credentials", "unsupported_grant_type"],
  // A refresh of an OAuth client's session (authsvc as an OAuth server), answered as OAuth `invalid_client`
  oauthSessionNeedsItsClient: ["invalid_credentials", "Client authentication required for OAuth session"],
  clientNotAllowedForSession: [
    "invalid_credentials",
    "Client authentication not allowed for non-OAuth session",
  ],
  logoutScopeInvalid: ["validation_failed", (scope: string) => `Unsupported logout scope "${scope}"`],
} as const satisfies FailureCatalogue;
