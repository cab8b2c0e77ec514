/** Sessions: how long a session may be refreshed, and how many a user may keep. */
import type { AuthSettings } from "@authsvc/core";
import * as k from "../../config/kinds.js";
import type { Reader } from "../../config/reader.js";
import type { Config } from "../../config/shape.js";
import { defineVariables } from "../../config/variable.js";

const variable = defineVariables("Sessions");
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
};

export interface SessionsConfig {
  /** Milliseconds; 0 = no limit. */
  readonly timeboxMs: number;
  /** Milliseconds; 0 = no limit. */
  readonly inactivityTimeoutMs: number;
  readonly singlePerUser: boolean;
}

export const read = (r: Reader) => r.getAll(variables);

export function settle(s: ReturnType<typeof read>): { sessions: SessionsConfig } {
  return {
    sessions: {
      timeboxMs: s.timebox,
      inactivityTimeoutMs: s.inactivityTimeout,
      singlePerUser: s.singlePerUser,
    },
  };
}

/** The session controls, as the use cases read them. */
export function sessionsSettings(config: Config): AuthSettings["sessions"] {
  return { ...config.sessions };
}

declare module "../../config/shape.js" {
  interface Config {
    readonly sessions: SessionsConfig;
  }
}
