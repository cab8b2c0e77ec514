/** Sessions: how long a session may be refreshed, how many a user may keep, and the account lockout. */
import type { AuthSettings } from "@authsvc/core";
import * as k from "../../config/kinds.js";
import type { Reader } from "../../config/reader.js";
import type { Config } from "../../config/shape.js";
import { defineVariables } from "../../config/variable.js";

const variable = defineVariables("Sessions");
const lockoutVariable = defineVariables("Account lockout");
export const variables = {
  timebox: variable({
    key: "SESSIONS_TIMEBOX",
    kind: k.duration(),
    default: "0",
    description:
      "How long after sign-in a session can still be refreshed, however active it is (e.g. `24h`); `0` is no limit. A refresh after it answers `400 session_expired`; access tokens already issued stay valid until they expire.",
  }),
  inactivityTimeout: variable({
    key: "SESSIONS_INACTIVITY_TIMEOUT",
    kind: k.duration(),
    default: "0",
    description:
      'A session not refreshed for this long can no longer be refreshed (`400 session_expired`, "(Inactivity)"); `0` is no limit.',
  }),
  singlePerUser: variable({
    key: "SESSIONS_SINGLE_PER_USER",
    kind: k.boolean,
    default: "false",
    description:
      'Only the user\'s most recently active session can be refreshed: a newer sign-in (or a later refresh of another session) ends the older ones at their next refresh (`400 session_expired`, "(Revoked by Newer Login)").',
  }),
  lockoutEnabled: lockoutVariable({
    key: "LOCKOUT_ENABLED",
    kind: k.boolean,
    default: "true",
    description:
      "Wrong passwords are counted per email address or phone number, on every instance; past the thresholds below, password sign-ins of that identifier wait, then are locked. Every refusal answers exactly as a wrong password (docs/http-api.md#account-lockout).",
  }),
  lockoutBackoffAfter: lockoutVariable({
    key: "LOCKOUT_BACKOFF_AFTER",
    kind: k.wholeNumber({ min: 1 }),
    default: "10",
    description:
      "Wrong passwords in a row after which each further attempt waits: 1 s after the last one, doubling with each further one, at most a minute.",
  }),
  lockoutLockAfter: lockoutVariable({
    key: "LOCKOUT_LOCK_AFTER",
    kind: k.wholeNumber({ min: 1 }),
    default: "20",
    description:
      "Wrong passwords in a row (attempts refused while waiting included) that lock the identifier.",
  }),
  lockoutDuration: lockoutVariable({
    key: "LOCKOUT_DURATION",
    kind: k.duration(1000),
    default: "15m",
    description:
      "How long a lock lasts. After it, the next wrong password locks again at once, until a right password, a proven address or an admin's unlock.",
  }),
  lockoutResetAfter: lockoutVariable({
    key: "LOCKOUT_RESET_AFTER",
    kind: k.duration(1000),
    default: "12h",
    description: "A count is forgotten this long after its last wrong password (once no lock holds).",
  }),
};

export interface SessionsConfig {
  /** Milliseconds; 0 = no limit. */
  readonly timeboxMs: number;
  /** Milliseconds; 0 = no limit. */
  readonly inactivityTimeoutMs: number;
  readonly singlePerUser: boolean;
  readonly lockout: AuthSettings["lockout"];
}

export const read = (r: Reader) => r.getAll(variables);

export function settle(s: ReturnType<typeof read>): { sessions: SessionsConfig } {
  return {
    sessions: {
      timeboxMs: s.timebox,
      inactivityTimeoutMs: s.inactivityTimeout,
      singlePerUser: s.singlePerUser,
      lockout: {
        enabled: s.lockoutEnabled,
        backoffAfter: s.lockoutBackoffAfter,
        lockAfter: s.lockoutLockAfter,
        lockSeconds: Math.ceil(s.lockoutDuration / 1000),
        resetSeconds: Math.ceil(s.lockoutResetAfter / 1000),
      },
    },
  };
}

/** The session controls, as the use cases read them. */
export function sessionsSettings(config: Config): AuthSettings["sessions"] {
  const { lockout: _, ...limits } = config.sessions;
  return limits;
}

/** The per-account lockout, as the password grant reads it. */
export const lockoutSettings = (config: Config): AuthSettings["lockout"] => config.sessions.lockout;

declare module "../../config/shape.js" {
  interface Config {
    readonly sessions: SessionsConfig;
  }
}
