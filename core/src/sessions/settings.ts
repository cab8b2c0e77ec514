import type { LockoutSettings } from "../accounts/index.js";

/**
 * The session controls (`SESSIONS_*`), in milliseconds; 0 turns a limit off. They are checked when a
 * session is refreshed (and when an admin token names a session), as the reference does; access tokens
 * already issued stay valid until they expire.
 */
export interface SessionLimits {
  /** `SESSIONS_TIMEBOX`: a session ends this long after it was created, however active. */
  readonly timeboxMs: number;
  /** `SESSIONS_INACTIVITY_TIMEOUT`: a session ends when not refreshed for this long. */
  readonly inactivityTimeoutMs: number;
  /** `SESSIONS_SINGLE_PER_USER`: only the user's most recently active session may be refreshed. */
  readonly singlePerUser: boolean;
}

/** The settings of the sessions slice, as they appear in `AuthSettings`. */
export interface SessionsSettings {
  /** Refresh-token rotation (`SECURITY_REFRESH_TOKEN_ROTATION_ENABLED`, `SECURITY_REFRESH_TOKEN_REUSE_INTERVAL`). */
  readonly refreshTokens: { readonly rotationEnabled: boolean; readonly reuseIntervalMs: number };
  /** The session controls (`SESSIONS_*`); see `session-limits.ts`. */
  readonly sessions: SessionLimits;
  /** The per-account lockout of password sign-ins (`LOCKOUT_*`). */
  readonly lockout: LockoutSettings;
}
