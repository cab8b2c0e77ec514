import type { CleanupTask } from "../task.js";
import { anonymousUsers } from "./anonymous-users.js";
import { auditEntries } from "./audit-entries.js";
import { dpopProofs } from "./dpop-proofs.js";
import { inactiveSessions, sessionsPastNotAfter, sessionsPastTimebox } from "./ended-sessions.js";
import {
  oauthAuthorizations,
  oauthClientAssertionJtis,
  oauthPushedRequests,
  webauthnChallenges,
} from "./expired-requests.js";
import { flowStates } from "./flow-states.js";
import { metadataDocumentClients } from "./metadata-document-clients.js";
import { mfaChallenges } from "./mfa-challenges.js";
import { oneTimeTokens } from "./one-time-tokens.js";
import { refreshTokens } from "./refresh-tokens.js";
import { requestLimits, sendCapWindows, signInFailures } from "./request-limits.js";
import { samlRelayStates } from "./saml-relay-states.js";
import { unverifiedFactors } from "./unverified-factors.js";

/** What decides which rows are stale: the settings their lifetimes come from. */
export interface CleanupSettings {
  /** `SESSIONS_TIMEBOX` in milliseconds; 0: none. */
  readonly sessionTimeboxMs: number;
  /** `SESSIONS_INACTIVITY_TIMEOUT` in milliseconds; 0: none. */
  readonly sessionInactivityTimeoutMs: number;
  /** Whether anonymous sign-ins are on: only then are old anonymous users removed. */
  readonly anonymousUsersEnabled: boolean;
  /** The longest lifetime of a link or code (`MAILER_OTP_EXP`, `SMS_OTP_EXP`), in milliseconds. */
  readonly oneTimeTokenLifetimeMs: number;
  /** `MFA_CHALLENGE_EXPIRY_DURATION` in milliseconds. */
  readonly mfaChallengeLifetimeMs: number;
  /** `AUDIT_LOG_RETENTION` in milliseconds; 0: audit entries are kept. */
  readonly auditLogRetentionMs: number;
  /** `CLEANUP_REVOKED_TOKEN_RETENTION` in milliseconds: how long a revoked refresh token is kept. */
  readonly revokedTokenRetentionMs: number;
  /** `CLEANUP_ENDED_SESSION_RETENTION` in milliseconds: how long a session is kept past its end. */
  readonly endedSessionRetentionMs: number;
}

/**
 * Every cleanup task that applies under `settings`, in the order a pass takes them. A new kind of
 * stale row is one file in this folder and one entry here.
 */
export function cleanupTasks(settings: CleanupSettings): CleanupTask[] {
  return [
    refreshTokens(settings.revokedTokenRetentionMs),
    sessionsPastNotAfter(settings.endedSessionRetentionMs),
    ...(settings.sessionTimeboxMs > 0
      ? [sessionsPastTimebox(settings.sessionTimeboxMs, settings.endedSessionRetentionMs)]
      : []),
    ...(settings.sessionInactivityTimeoutMs > 0
      ? [inactiveSessions(settings.sessionInactivityTimeoutMs, settings.endedSessionRetentionMs)]
      : []),
    flowStates(settings.oneTimeTokenLifetimeMs),
    mfaChallenges(settings.mfaChallengeLifetimeMs),
    unverifiedFactors,
    oneTimeTokens(settings.oneTimeTokenLifetimeMs),
    oauthAuthorizations,
    oauthPushedRequests,
    oauthClientAssertionJtis,
    metadataDocumentClients,
    webauthnChallenges,
    samlRelayStates,
    requestLimits,
    sendCapWindows,
    signInFailures,
    dpopProofs,
    ...(settings.anonymousUsersEnabled ? [anonymousUsers] : []),
    ...(settings.auditLogRetentionMs > 0 ? [auditEntries(settings.auditLogRetentionMs)] : []),
  ];
}
