import { isDatabaseUnavailable } from "@authsvc/adapters";
import { AuthError, type ErrorCode, type FailureName, failures, HookRejection } from "@authsvc/core";
import type { Context } from "hono";
import type { ApiVersion } from "./api-version.js";

/** The HTTP status of each error code, as the reference answers it (reference, "Error codes"). */
const STATUS_BY_CODE: Readonly<Record<ErrorCode, number>> = {
  unknown: 500,
  unexpected_failure: 500,
  validation_failed: 400,
  bad_json: 400,
  request_entity_too_large: 413,
  request_timeout: 504,
  not_found: 404,
  method_not_allowed: 405,
  email_exists: 422,
  phone_exists: 422,
  bad_jwt: 403,
  not_admin: 403,
  no_authorization: 401,
  user_not_found: 404,
  session_not_found: 403,
  session_expired: 403,
  refresh_token_not_found: 400,
  refresh_token_already_used: 400,
  flow_state_not_found: 404,
  flow_state_expired: 422,
  signup_disabled: 422,
  user_banned: 403,
  provider_email_needs_verification: 422,
  invite_not_found: 404,
  bad_oauth_state: 400,
  bad_oauth_callback: 400,
  oauth_provider_not_supported: 400,
  unexpected_audience: 403,
  email_provider_disabled: 400,
  phone_provider_disabled: 400,
  captcha_failed: 400,
  sms_send_failed: 422,
  email_not_confirmed: 400,
  phone_not_confirmed: 400,
  user_already_exists: 400,
  conflict: 409,
  provider_disabled: 404,
  reauthentication_needed: 400,
  same_password: 422,
  reauthentication_not_valid: 422,
  otp_expired: 403,
  otp_disabled: 422,
  weak_password: 422,
  over_request_rate_limit: 429,
  over_email_send_rate_limit: 429,
  over_sms_send_rate_limit: 429,
  anonymous_provider_disabled: 422,
  invalid_credentials: 400,
  email_address_invalid: 400,
  email_address_not_authorized: 400,
  email_send_failed: 500,
  feature_disabled: 404,
  bad_code_verifier: 400,
  flow_state_already_used: 400,
  identity_already_exists: 422,
  identity_not_found: 422,
  single_identity_not_deletable: 422,
  email_conflict_identity_not_deletable: 422,
  manual_linking_disabled: 404,
  hook_timeout: 422,
  hook_timeout_after_retry: 422,
  hook_payload_invalid_content_type: 400,
  hook_payload_over_size_limit: 422,
  mfa_verification_rejected: 403,
  too_many_enrolled_mfa_factors: 422,
  mfa_factor_name_conflict: 422,
  mfa_factor_not_found: 404,
  mfa_ip_address_mismatch: 422,
  mfa_challenge_expired: 422,
  mfa_verification_failed: 422,
  mfa_verified_factor_exists: 422,
  insufficient_aal: 403,
  mfa_totp_enroll_not_enabled: 422,
  mfa_totp_verify_not_enabled: 422,
  mfa_phone_enroll_not_enabled: 422,
  mfa_phone_verify_not_enabled: 422,
};

/** Failures the reference answers with another status than the usual one of their code. */
const STATUS_OVERRIDES: Readonly<Partial<Record<FailureName, number>>> = {
  // The token endpoint refuses a banned user with 400; authenticated routes and /verify with 403.
  userBannedAtTokenGrant: 400,
  // POST /token with a disabled provider is 422; /otp, /magiclink and /resend answer 400.
  emailPasswordLoginsDisabled: 422,
  phonePasswordLoginsDisabled: 422,
  reauthenticationEmailNotConfirmed: 422,
  reauthenticationPhoneNotConfirmed: 422,
  reauthenticationNoAddress: 422,
  anonymousPasswordUpdate: 422,
  jwtSubNotUuid: 400,
  jwtUserMissing: 403,
  userIdNotUuid: 404,
  // The reference answers a magic link request without an email with 422, other missing fields with 400.
  magicLinkEmailMissing: 422,
  // The reference fails with a 500 there; the clash is with existing state, not a malformed input.
  userIdTaken: 422,
  // A restart or a killed backend is not a bug: a retryable 503 while the pool reconnects.
  databaseUnavailable: 503,
  // GET /verify answers a PKCE link without its flow state with 400 (the grant's own lookup is 404).
  noFlowStateForUser: 400,
  linkingTargetMissing: 422,
  identityIdNotUuid: 404,
  idTokenProviderDisabled: 400,
  linkedEmailNeedsVerification: 422,
  // MFA (the reference's mfa.go): anonymous callers 403; a malformed factor id 404; an unknown
  // challenge id 422; unenrolling a verified factor below aal2 422.
  anonymousMfa: 403,
  factorIdNotUuid: 404,
  challengeNotFound: 422,
  unenrollNeedsAal2: 422,
  // PUT /user: a change of password, email or phone below aal2 is the reference's 401.
  updateNeedsAal2: 401,
  // A refresh of an ended session is a bad request at the token endpoint; an admin token whose session
  // ended keeps the code's 403.
  sessionExpired: 400,
  sessionInactive: 400,
  sessionRevokedByNewerLogin: 400,
  // Not one of the caller's sessions: a missing resource, as the reference answers a factor it cannot find.
  userSessionNotFound: 404,
};

/** An error the HTTP layer raises itself (bad JSON, unknown route, request limits), with its status. */
export class HttpError extends AuthError {
  constructor(
    readonly status: number,
    code: ErrorCode,
    message: string,
  ) {
    super(code, message);
  }
}

/** The HTTP status of `error`: its own (HTTP-layer errors), its failure's override, else its code's. */
export function statusOf(error: AuthError): number {
  if (error instanceof HttpError) return error.status;
  if (error instanceof HookRejection) return error.httpStatus;
  return STATUS_OVERRIDES[error.failure as FailureName] ?? STATUS_BY_CODE[error.code];
}

/** The message GoTrue gives for every unexpected fault: nothing internal reaches the client. */
export const UNEXPECTED_MESSAGE = failures.unexpectedFailure().message;

/**
 * Builds an error response in the shape the request asked for (reference §2.1):
 * legacy `{code: <status>, error_code, msg}` by default; `{code: <error_code>, message}` from API
 * version 2024-01-01 on. Extra details (e.g. `weak_password`) are merged into both shapes, and 5xx
 * bodies carry the request id as `error_id` so an operator can find the log line.
 */
export function errorBody(
  error: AuthError,
  apiVersion: ApiVersion,
  requestId: string,
): Record<string, unknown> {
  const status = statusOf(error);
  const errorId = status >= 500 ? { error_id: requestId } : {};
  if (apiVersion === "2024-01-01") {
    return { code: error.code, message: error.message, ...error.details, ...errorId };
  }
  return { code: status, error_code: error.code, msg: error.message, ...error.details, ...errorId };
}

/** Sends `error` as JSON with `x-sb-error-code`; the API version header is added by its middleware. */
export function errorResponse(c: Context, error: AuthError): Response {
  const body = errorBody(error, c.get("apiVersion") ?? "legacy", c.get("requestId") ?? "");
  c.header("x-sb-error-code", error.code);
  return c.json(body, statusOf(error) as 400);
}

/**
 * Converts anything thrown by a handler into the AuthError that is safe to show. Adapters report
 * input they cannot store as a failure themselves; anything else thrown is a fault.
 */
export function toAuthError(thrown: unknown): AuthError {
  if (thrown instanceof AuthError) return thrown;
  if (isDatabaseUnavailable(thrown)) return failures.databaseUnavailable();
  return failures.unexpectedFailure();
}

/** Shorthand for an error the HTTP layer raises itself; the named ones are in `http-failures.ts`. */
export const httpError = (status: number, code: ErrorCode, message: string) =>
  new HttpError(status, code, message);
