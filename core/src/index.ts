/**
 * @authsvc/core's public entry: the use cases the apps call and the port and domain types the
 * adapters implement. Everything else stays inside its slice.
 */

export { reauthenticate } from "./account-settings/reauthenticate.js";
export { updateUser } from "./account-settings/update-user.js";
// Accounts
export { AUDIT_LOG_TYPES, auditPayload } from "./accounts/audit-payload.js";
export type { AccountsRepositories } from "./accounts/deps.js";
export type { Factor, FactorCredential, FactorType } from "./accounts/factor.js";
export type { PasswordSettings, PasswordWeakness } from "./accounts/password-policy.js";
export type {
  AuditAction,
  AuditEntry,
  AuditLog,
  AuditRecord,
  AuditSearchField,
} from "./accounts/ports/audit-log.js";
export type { IdentityRepository } from "./accounts/ports/identity-repository.js";
export type { LeakedPasswords, LeakVerdict } from "./accounts/ports/leaked-passwords.js";
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
export type { CustomProvidersRepositories } from "./custom-providers/deps.js";
// Custom providers
export * from "./custom-providers/index.js";
export type { AuthDeps } from "./deps.js";
export {
  type CallbackFailure,
  type CallbackOutcome,
  completeExternalSignIn,
} from "./external/complete-external-sign-in.js";
// External sign-in
export type {
  AuthorizationRequest,
  ExternalEmail,
  ExternalProvider,
  ExternalProviders,
  ExternalUser,
  IdTokenVerifier,
  ProviderTokens,
} from "./external/index.js";
export type { ExternalIdentityStore } from "./external/ports/external-identities.js";
export { idTokenGrant, signInWithIdToken } from "./external/sign-in-with-id-token.js";
export { type StartedExternalSignIn, startExternalSignIn } from "./external/start-external-sign-in.js";
export { unlinkIdentity } from "./external/unlink-identity.js";
export { type FailureName, failureCodeOf, failureCodes, failures } from "./failures.js";
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
export { AuthError, type ErrorCode, ErrorCodes, HookRejection } from "./kernel/errors.js";
export type { Clock } from "./kernel/ports/clock.js";
export type { DeliveryFailure, DeliveryQueue } from "./kernel/ports/delivery-queue.js";
export type { CommittedOutcome, MethodTraits, PortTraits } from "./kernel/ports/port-traits.js";
export type { Random } from "./kernel/ports/random.js";
export type { SecretTokens } from "./kernel/ports/secret-tokens.js";
export { isRedirectAllowed, resolveRedirect } from "./kernel/redirect.js";
export type { Result } from "./kernel/result.js";
// Kernel
export type { KernelSettings } from "./kernel/settings.js";
export { hasLoneSurrogate, isStorableText, storableText } from "./kernel/storable-text.js";
export { isUuid } from "./kernel/uuid.js";
// Verification
export type { Mail, Mailer, MailKind } from "./messaging/ports/mailer.js";
export type {
  OneTimeToken,
  OneTimeTokenStore,
  OneTimeTokenType,
} from "./messaging/ports/one-time-tokens.js";
export type { SendQuota } from "./messaging/ports/send-quota.js";
export type { SmsContext, SmsSender } from "./messaging/ports/sms-sender.js";
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
export type { MfaSettings } from "./mfa/settings.js";
export type { OAuthServerRepositories } from "./oauth-server/deps.js";
// OAuth server
export * from "./oauth-server/index.js";
// Passkeys
export * from "./passkeys/index.js";
export { sendMagicLink } from "./passwordless/send-magic-link.js";
export { sendSmsOtp } from "./passwordless/send-otp-sms.js";
// PKCE
export { exchangeAuthCode, pkceGrant } from "./pkce/exchange-auth-code.js";
export {
  type CodeChallengeMethod,
  FLOW_STATE_EXPIRY_SECONDS,
  type FlowState,
  PKCE_PREFIX,
  type PkceChallenge,
  parsePkceChallenge,
} from "./pkce/flow-state.js";
export type { FlowStateStore } from "./pkce/ports/flow-state-store.js";
export { hexToBase64Url } from "./pkce/verifier.js";
export { type DepsTraits, depsTraits, type StoreTraits, storeTraits } from "./port-traits.js";
export { recoverPassword } from "./recovery/recover.js";
// Sessions
export { authenticate, authenticateAdmin, type RequestAudience } from "./sessions/authenticate.js";
export type { AccessTokenClaims } from "./sessions/claims.js";
export { defineGrant, type Grant, type GrantRegistry, grantRegistry } from "./sessions/grants.js";
export { logout } from "./sessions/logout.js";
export type {
  PasswordGrantInput,
  RefreshGrantInput,
  RefreshGrantOutcome,
  SessionStore,
} from "./sessions/ports/session-store.js";
export type { TokenSigner } from "./sessions/ports/token-signer.js";
export { refreshSession, refreshTokenGrant } from "./sessions/refresh-session.js";
export type { AmrEntry, RefreshTokenRecord, Session } from "./sessions/session.js";
export type { SessionLimits } from "./sessions/settings.js";
export type { PasswordSignIn } from "./sessions/sign-in-password.js";
export { passwordGrant, signInWithPassword } from "./sessions/sign-in-password.js";
export type { SessionTokens } from "./sessions/steps/issue-session.js";
export { type BearerKind, ID_TOKEN_USE, type TokenKind, tokenKind } from "./sessions/token-kind.js";
export {
  listUserSessions,
  revokeUserSession,
  type SessionView,
} from "./sessions/user-sessions.js";
export type { AuthSettings } from "./settings.js";
export { signUp } from "./signup/sign-up.js";
// SSO
export * from "./sso/index.js";
export type { Repositories, Store } from "./store.js";
export type { VerificationRepositories } from "./verification/deps.js";
export { resend } from "./verification/resend.js";
export { verifyOtp } from "./verification/verify.js";
export { WEB3_INVALID_GRANT } from "./web3/failures.js";
export type { WalletSignatures } from "./web3/ports/wallet-signatures.js";
export type { Web3ChainSettings, Web3Settings } from "./web3/settings.js";
export {
  type MessageTimeProblem,
  messageTimeProblem,
  type SignInMessage,
} from "./web3/sign-in-message.js";
export { signInWithWeb3, type Web3SignInInput, web3Grant } from "./web3/sign-in-web3.js";
export { parseSiweMessage, type SiweMessage } from "./web3/siwe-message.js";
export { parseSiwsMessage, type SiwsMessage } from "./web3/siws-message.js";
