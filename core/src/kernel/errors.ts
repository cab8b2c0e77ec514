/** OAuth 2.1's own error words, answered by the OAuth server's endpoints (RFC 6749 §5.2). */
export const OAUTH_ERROR_CODES = [
  "invalid_request",
  "invalid_client",
  "unauthorized_client",
  "invalid_grant",
  "unsupported_grant_type",
  "invalid_scope",
  // RFC 8707 §2: a resource the authorization server does not issue tokens for.
  "invalid_target",
  // RFC 7009 §2.2.1: a token the server cannot revoke (a self-contained one without a session).
  "unsupported_token_type",
  "access_denied",
  "server_error",
  // RFC 8628 §3.5: a device polling the token endpoint.
  "authorization_pending",
  "slow_down",
  "expired_token",
  // RFC 9449 §5, §8: a refused DPoP proof; a proof without the nonce the server requires.
  "invalid_dpop_proof",
  "use_dpop_nonce",
  // RFC 6750 §3.1, RFC 9449 §7.1: a resource server's refusal of the token itself.
  "invalid_token",
] as const;

/**
 * The error vocabulary: every `error_code` string of the reference (its `apierrors/errorcode.go`), plus
 * the HTTP protocol's own (`not_found`, `method_not_allowed`), OAuth 2.1's error words and
 * `email_send_failed`, defined once. A
 * capability uses these; it adds none here unless the reference grows one. A code has an HTTP status
 * when a module owns it (the `statuses` of its module in apps/http); a code no failure uses needs none.
 */
export const ErrorCodes = [
  "unknown",
  "unexpected_failure",
  "validation_failed",
  "bad_json",
  "request_entity_too_large",
  "request_timeout",
  "not_found",
  "method_not_allowed",
  "email_exists",
  "phone_exists",
  "bad_jwt",
  "not_admin",
  "no_authorization",
  "user_not_found",
  "session_not_found",
  "session_expired",
  "refresh_token_not_found",
  "refresh_token_already_used",
  "flow_state_not_found",
  "flow_state_expired",
  "signup_disabled",
  "user_banned",
  "provider_email_needs_verification",
  "invite_not_found",
  "bad_oauth_state",
  "bad_oauth_callback",
  "oauth_provider_not_supported",
  "unexpected_audience",
  "email_provider_disabled",
  "phone_provider_disabled",
  "captcha_failed",
  "sms_send_failed",
  "email_not_confirmed",
  "phone_not_confirmed",
  "user_already_exists",
  "conflict",
  "provider_disabled",
  "reauthentication_needed",
  "same_password",
  "reauthentication_not_valid",
  "otp_expired",
  "otp_disabled",
  "weak_password",
  "over_request_rate_limit",
  "over_email_send_rate_limit",
  "over_sms_send_rate_limit",
  "anonymous_provider_disabled",
  "invalid_credentials",
  "email_address_invalid",
  "email_address_not_authorized",
  "email_send_failed",
  "feature_disabled",
  "bad_code_verifier",
  "flow_state_already_used",
  "identity_already_exists",
  "identity_not_found",
  "single_identity_not_deletable",
  "email_conflict_identity_not_deletable",
  "manual_linking_disabled",
  "hook_timeout",
  "hook_timeout_after_retry",
  "hook_payload_invalid_content_type",
  "hook_payload_over_size_limit",
  "mfa_verification_rejected",
  "too_many_enrolled_mfa_factors",
  "mfa_factor_name_conflict",
  "mfa_factor_not_found",
  "mfa_ip_address_mismatch",
  "mfa_challenge_expired",
  "mfa_verification_failed",
  "mfa_verified_factor_exists",
  "insufficient_aal",
  "mfa_totp_enroll_not_enabled",
  "mfa_totp_verify_not_enabled",
  "mfa_phone_enroll_not_enabled",
  "mfa_phone_verify_not_enabled",
  "oauth_client_state_not_found",
  "oauth_client_state_expired",
  "oauth_invalid_state",
  "saml_provider_disabled",
  "saml_relay_state_not_found",
  "saml_relay_state_expired",
  "saml_idp_not_found",
  "saml_assertion_no_user_id",
  "saml_assertion_no_email",
  "sso_provider_not_found",
  "sso_provider_disabled",
  "saml_metadata_fetch_failed",
  "saml_idp_already_exists",
  "sso_domain_already_exists",
  "saml_entity_id_mismatch",
  "user_sso_managed",
  "current_password_invalid",
  "current_password_required",
  "mfa_webauthn_enroll_not_enabled",
  "mfa_webauthn_verify_not_enabled",
  "mfa_recovery_codes_enroll_not_enabled",
  "mfa_recovery_codes_verify_not_enabled",
  "mfa_recovery_codes_locked",
  "mfa_recovery_codes_sole_factor",
  "web3_provider_disabled",
  "web3_unsupported_chain",
  "oauth_dynamic_client_registration_disabled",
  "email_address_not_provided",
  "oauth_client_not_found",
  "oauth_authorization_not_found",
  "oauth_consent_not_found",
  "custom_provider_not_found",
  "over_custom_provider_quota",
  "passkey_disabled",
  "too_many_passkeys",
  "webauthn_credential_not_found",
  "webauthn_challenge_not_found",
  "webauthn_challenge_expired",
  "webauthn_verification_failed",
  "webauthn_credential_exists",
  ...OAUTH_ERROR_CODES,
] as const;

export type ErrorCode = (typeof ErrorCodes)[number];

/** Extra fields some errors carry in their body (e.g. `weak_password.reasons`). */
export type ErrorDetails = Readonly<Record<string, unknown>>;

/**
 * An expected failure of a use case. Returned (never thrown) inside a `Result`; the HTTP layer turns
 * it into the reference's body shapes and chooses the status from `code` (and `failure`, the
 * catalogue entry, where the reference answers one code with several statuses). Build one with
 * `failures.<name>()` (see `failures.ts`), not by hand.
 */
export class AuthError extends Error {
  override readonly name = "AuthError";
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly details?: ErrorDetails,
    /** The catalogue entry this error was built from (the code itself for an error built ad hoc). */
    readonly failure: string = code,
  ) {
    super(message);
  }
}

/**
 * The refusal of an auth hook that answered `{"error": {"http_code", "message"}}`: the client gets
 * that status and message (reference `hookserrors`). A status outside 400–599 answers 500.
 */
export class HookRejection extends AuthError {
  readonly httpStatus: number;
  constructor(httpCode: unknown, message: string) {
    const status =
      typeof httpCode === "number" && Number.isInteger(httpCode) && httpCode >= 400 && httpCode <= 599
        ? httpCode
        : 500;
    // The reference leaves the error code empty: `unexpected_failure` for a 5xx, `unknown` otherwise.
    super(status >= 500 ? "unexpected_failure" : "unknown", message, undefined, "hookError");
    this.httpStatus = status;
  }
}
