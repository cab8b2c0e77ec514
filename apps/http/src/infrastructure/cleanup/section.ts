/** Cleanup: the stale rows every instance removes continuously, so that the tables stay bounded. */
import type { CleanupSettings } from "@authsvc/adapters";
import * as k from "../../config/kinds.js";
import type { Reader } from "../../config/reader.js";
import type { Config } from "../../config/shape.js";
import { defineVariables } from "../../config/variable.js";

const variable = defineVariables("Cleanup");
export const variables = {
  enabled: variable({
    key: "CLEANUP_ENABLED",
    kind: k.boolean,
    default: "true",
    description:
      "Remove stale rows continuously: refresh tokens revoked longer ago than `CLEANUP_REVOKED_TOKEN_RETENTION` (never a session's live one), sessions past their end (`not_after`, `SESSIONS_TIMEBOX`, `SESSIONS_INACTIVITY_TIMEOUT`) by more than `CLEANUP_ENDED_SESSION_RETENTION`, flow states, MFA challenges, unverified factors older than a day, expired one-time tokens, request-limit and send-cap windows that ended, anonymous users older than 30 days while anonymous sign-ins are on, and audit entries past `AUDIT_LOG_RETENTION`. Safe on every instance at once: each statement takes a small batch of rows no one else holds (`for update skip locked`). `authsvc cleanup` runs one full pass by hand.",
  }),
  interval: variable({
    key: "CLEANUP_INTERVAL",
    kind: k.duration(1_000),
    default: "10s",
    description:
      "Time between two passes of an instance's cleanup. A pass runs each kind's statement again while it finds rows, for at most this long; one stopped by that limit (a backlog after an import, or rows going stale as fast as a sustained load makes them) is followed after a tenth of it. The passes run one statement at a time on a connection of their own.",
  }),
  batchSize: variable({
    key: "CLEANUP_BATCH_SIZE",
    kind: k.wholeNumber({ min: 1, max: 10_000 }),
    default: "100",
    description:
      "Most rows one cleanup statement removes (a quarter of it for sessions, a tenth for anonymous users, whose removal cascades): each statement's locks are held only for that many rows.",
  }),
  auditLogRetention: variable({
    key: "AUDIT_LOG_RETENTION",
    kind: k.duration(),
    default: "0",
    description:
      "Audit entries older than this are removed by the cleanup (e.g. `2160h` for 90 days); `0` keeps them forever.",
  }),
  revokedTokenRetention: variable({
    key: "CLEANUP_REVOKED_TOKEN_RETENTION",
    kind: k.duration(60_000),
    default: "24h",
    description:
      "How long the cleanup keeps a revoked refresh token (at least `1m`). While it is kept, presenting it again is recognised (within `SECURITY_REFRESH_TOKEN_REUSE_INTERVAL`: answered with the same new token; after: as reuse, and its session is revoked); once removed, it is answered as an unknown token. Shorter keeps `refresh_tokens` smaller (a session refreshed hourly leaves 24 revoked tokens a day) at the cost of that detection.",
  }),
  endedSessionRetention: variable({
    key: "CLEANUP_ENDED_SESSION_RETENTION",
    kind: k.duration(60_000),
    default: "24h",
    description:
      "How long the cleanup keeps a session past its end (`not_after`, `SESSIONS_TIMEBOX`, `SESSIONS_INACTIVITY_TIMEOUT`; at least `1m`): until then a refresh of it answers `session_expired`, after `refresh_token_not_found`.",
  }),
};

export interface CleanupConfig {
  readonly enabled: boolean;
  readonly intervalMs: number;
  readonly batchSize: number;
  /** Milliseconds; 0: audit entries are kept. */
  readonly auditLogRetentionMs: number;
  /** Milliseconds a revoked refresh token is kept. */
  readonly revokedTokenRetentionMs: number;
  /** Milliseconds a session is kept past its end. */
  readonly endedSessionRetentionMs: number;
}

export const read = (r: Reader) => r.getAll(variables);

export function settle(c: ReturnType<typeof read>): { cleanup: CleanupConfig } {
  return {
    cleanup: {
      enabled: c.enabled,
      intervalMs: c.interval,
      batchSize: c.batchSize,
      auditLogRetentionMs: c.auditLogRetention,
      revokedTokenRetentionMs: c.revokedTokenRetention,
      endedSessionRetentionMs: c.endedSessionRetention,
    },
  };
}

/** What decides which rows are stale: lifetimes the other sections set. */
export function cleanupSettings(config: Config): CleanupSettings {
  return {
    sessionTimeboxMs: config.sessions.timeboxMs,
    sessionInactivityTimeoutMs: config.sessions.inactivityTimeoutMs,
    anonymousUsersEnabled: config.external.anonymousUsers.enabled,
    oneTimeTokenLifetimeMs: Math.max(config.mailer.otpExp, config.sms.otpExp) * 1000,
    mfaChallengeLifetimeMs: config.mfa.settings.challengeExpiry * 1000,
    auditLogRetentionMs: config.cleanup.auditLogRetentionMs,
    revokedTokenRetentionMs: config.cleanup.revokedTokenRetentionMs,
    endedSessionRetentionMs: config.cleanup.endedSessionRetentionMs,
  };
}

declare module "../../config/shape.js" {
  interface Config {
    readonly cleanup: CleanupConfig;
  }
}
