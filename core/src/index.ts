/**
 * @authsvc/core's public entry: the use cases the apps call and the port and domain types the
 * adapters implement. Everything else stays inside its slice.
 */

// Accounts
export { AUDIT_LOG_TYPES, auditPayload } from "./accounts/audit-payload.js";
export type { AccountsRepositories } from "./accounts/deps.js";
export type { Factor, FactorType } from "./accounts/factor.js";
export type {
  AuditAction,
  AuditEntry,
  AuditLog,
  AuditRecord,
  AuditSearchField,
} from "./accounts/ports/audit-log.js";
export type { IdentityRepository } from "./accounts/ports/identity-repository.js";
export type { PasswordHasher } from "./accounts/ports/password-hasher.js";
export type { UserFactors } from "./accounts/ports/user-factors.js";
export type { UserRepository } from "./accounts/ports/user-repository.js";
export {
  confirmedAt,
  type Identity,
  type Metadata,
  type User,
  type UserWithIdentities,
} from "./accounts/user.js";
// Admin
export { adminCreateUser } from "./admin/admin-create-user.js";
export { adminDeleteUser } from "./admin/admin-delete-user.js";
export { adminGetUser } from "./admin/admin-get-user.js";
export { type AuditPage, adminListAudit } from "./admin/admin-list-audit.js";
export { adminListUsers } from "./admin/admin-list-users.js";
export { adminUpdateUser } from "./admin/admin-update-user.js";
export { type GenerateLinkType, generateLink } from "./admin/generate-link.js";
export { inviteUser } from "./admin/invite-user.js";
export type { AuthDeps } from "./deps.js";
// Guards
export {
  type CaptchaChallenge,
  type CaptchaDeps,
  type CaptchaVerdict,
  type CaptchaVerifier,
  checkCaptcha,
  type RequestLimiter,
} from "./guards/index.js";
// Hooks
export {
  HOOK_NAMES,
  HOOK_PAYLOAD_NAMES,
  type HookDispatcher,
  type HookFunctions,
  type HookInputs,
  type HookName,
  type HookOutputs,
  type HooksRepositories,
  hookAnswerFailure,
  mfaVerificationAttempt,
  type SendEmailData,
} from "./hooks/index.js";
export { AuthError, type ErrorCode, HookRejection } from "./kernel/errors.js";
export { type FailureName, failures } from "./kernel/failures.js";
export type { Clock } from "./kernel/ports/clock.js";
export type { DeliveryFailure, DeliveryQueue } from "./kernel/ports/delivery-queue.js";
export type { CommittedOutcome, MethodTraits, PortTraits } from "./kernel/ports/port-traits.js";
export type { Random } from "./kernel/ports/random.js";
export type { SecretTokens } from "./kernel/ports/secret-tokens.js";
export { resolveRedirect } from "./kernel/redirect.js";
export type { Result } from "./kernel/result.js";
// Kernel
export type { AuthSettings, SessionLimits } from "./kernel/settings.js";
export { hasLoneSurrogate, isStorableText, storableText } from "./kernel/storable-text.js";
export { isUuid } from "./kernel/uuid.js";
// MFA
export {
  adminDeleteFactor,
  adminListFactors,
  adminUpdateFactor,
  type Challenge,
  type ChallengeStore,
  challengeFactor,
  enrollFactor,
  type FactorAttempts,
  type FactorStore,
  type LockedFactor,
  type SecretBox,
  type SessionAssurance,
  type Totp,
  type TotpEnrolment,
  unenrollFactor,
  verifyFactor,
} from "./mfa/index.js";
export {
  type CallbackFailure,
  type CallbackOutcome,
  completeExternalSignIn,
} from "./oauth/complete-external-sign-in.js";
// External sign-in
export type {
  AuthorizationRequest,
  ExternalEmail,
  ExternalProvider,
  ExternalProviders,
  ExternalUser,
  IdTokenVerifier,
  ProviderTokens,
} from "./oauth/index.js";
export type { ExternalIdentityStore } from "./oauth/ports/external-identities.js";
export { signInWithIdToken } from "./oauth/sign-in-with-id-token.js";
export { type StartedExternalSignIn, startExternalSignIn } from "./oauth/start-external-sign-in.js";
export { unlinkIdentity } from "./oauth/unlink-identity.js";
// PKCE
export { exchangeAuthCode } from "./pkce/exchange-auth-code.js";
export {
  type CodeChallengeMethod,
  FLOW_STATE_EXPIRY_SECONDS,
  type FlowState,
  PKCE_PREFIX,
  type PkceChallenge,
  parsePkceChallenge,
} from "./pkce/flow-state.js";
export type { FlowStateStore } from "./pkce/ports/flow-state-store.js";
export { type DepsTraits, depsTraits, type StoreTraits, storeTraits } from "./port-traits.js";
// Sessions
export { authenticate, authenticateAdmin, type RequestAudience } from "./sessions/authenticate.js";
export type { AccessTokenClaims } from "./sessions/claims.js";
export { logout } from "./sessions/logout.js";
export type {
  PasswordGrantInput,
  RefreshGrantInput,
  RefreshGrantOutcome,
  SessionStore,
} from "./sessions/ports/session-store.js";
export type { TokenSigner } from "./sessions/ports/token-signer.js";
export { refreshSession } from "./sessions/refresh-session.js";
export type { AmrEntry, RefreshTokenRecord, Session } from "./sessions/session.js";
export { signInWithPassword } from "./sessions/sign-in-password.js";
export type { SessionTokens } from "./sessions/steps/issue-session.js";
export {
  listUserSessions,
  revokeUserSession,
  type SessionView,
} from "./sessions/user-sessions.js";
export type { Repositories, Store } from "./store.js";
export type { VerificationRepositories } from "./verification/deps.js";
// Verification
export type { Mail, Mailer, MailKind } from "./verification/ports/mailer.js";
export type {
  OneTimeToken,
  OneTimeTokenStore,
  OneTimeTokenType,
} from "./verification/ports/one-time-tokens.js";
export type { SendQuota } from "./verification/ports/send-quota.js";
export type { SmsContext, SmsSender } from "./verification/ports/sms-sender.js";
export { reauthenticate } from "./verification/reauthenticate.js";
export { recoverPassword } from "./verification/recover.js";
export { resend } from "./verification/resend.js";
export { sendMagicLink } from "./verification/send-magic-link.js";
export { sendSmsOtp } from "./verification/send-otp-sms.js";
export { signUp } from "./verification/sign-up.js";
export { updateUser } from "./verification/update-user.js";
export { verifyOtp } from "./verification/verify.js";
