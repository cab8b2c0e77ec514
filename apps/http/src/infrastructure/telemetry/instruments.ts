import type { Counter, Histogram, Meter } from "@opentelemetry/api";

/**
 * Every metric authsvc records itself (Node runtime metrics come from their instrumentation). The
 * reference's names are kept as they are so that dashboards made for it keep working; the Prometheus
 * exporter adds `_total` to counters, as the reference's does.
 */
export interface Instruments {
  readonly httpStatusCodes: Counter;
  readonly httpDuration: Histogram;
  readonly emailSends: Counter;
  readonly emailSendErrors: Counter;
  readonly emailRateLimit: Counter;
  readonly smsSends: Counter;
  readonly smsSendErrors: Counter;
  readonly hashSubmitted: Counter;
  readonly hashCompleted: Counter;
  readonly compareSubmitted: Counter;
  readonly compareCompleted: Counter;
  readonly signIns: Counter;
  readonly signUps: Counter;
  readonly refreshRotations: Counter;
  readonly accountLockouts: Counter;
  readonly refreshReuse: Counter;
  readonly otpFailures: Counter;
  readonly rateLimitRefusals: Counter;
  readonly hookFailures: Counter;
}

/** The gauges read at each collection, with what they observe. */
export interface GaugeSources {
  readonly version: string;
  /** Database work in flight: statements outside transactions plus open transactions. */
  readonly dbInFlight: () => number;
  readonly dbPoolMax: number;
  /** Rows removed by the cleanup since start (none counted when absent). */
  readonly cleanupAffectedRows?: () => number;
}

const VERSION = /^(\d+)\.(\d+)\.(\d+)(?:-rc\.?(\d+))?/;

/** The reference's version gauges: `global_auth_version_major|minor|patch|rc`. */
function versionParts(version: string): Record<"major" | "minor" | "patch" | "rc", number> {
  const match = VERSION.exec(version);
  return {
    major: Number(match?.[1] ?? 0),
    minor: Number(match?.[2] ?? 0),
    patch: Number(match?.[3] ?? 0),
    rc: Number(match?.[4] ?? 0),
  };
}

/** Creates the instruments on `meter` and registers the observable gauges. */
export function createInstruments(meter: Meter, gauges: GaugeSources): Instruments {
  const counter = (name: string, description: string) => meter.createCounter(name, { description });

  meter
    .createObservableGauge("gotrue_running", { description: "1 while the server runs" })
    .addCallback((result) => result.observe(1));
  for (const [part, value] of Object.entries(versionParts(gauges.version))) {
    meter
      .createObservableGauge(`global_auth_version_${part}`, {
        description: `The ${part} part of the version`,
      })
      .addCallback((result) => result.observe(value));
  }
  // postgres.js exposes no pool statistics: in use and waiting are derived from the work in flight
  // (a statement or an open transaction holds one connection), idle from the pool's maximum.
  const poolGauge = (name: string, description: string, value: (inFlight: number) => number) =>
    meter
      .createObservableGauge(name, { description })
      .addCallback((result) => result.observe(value(gauges.dbInFlight())));
  const max = gauges.dbPoolMax;
  poolGauge("authsvc_db_pool_in_use", "Connections busy with a statement or a transaction", (n) =>
    Math.min(n, max),
  );
  poolGauge("authsvc_db_pool_idle", "Connections of the pool not in use (of its maximum)", (n) =>
    Math.max(0, max - n),
  );
  poolGauge("authsvc_db_pool_waiting", "Statements and transactions waiting for a connection", (n) =>
    Math.max(0, n - max),
  );
  poolGauge("authsvc_db_pool_max", "The pool's maximum number of connections", () => max);
  // The reference's observable counter: the cleanup keeps its own running total.
  meter
    .createObservableCounter("gotrue_cleanup_affected_rows", {
      description: "Number of affected rows from cleaning up stale entities",
    })
    .addCallback((result) => result.observe(gauges.cleanupAffectedRows?.() ?? 0));

  return {
    httpStatusCodes: counter("http_status_codes", "Responses by status code and route"),
    httpDuration: meter.createHistogram("http.server.request.duration", {
      description: "Duration of HTTP server requests",
      unit: "s",
      advice: {
        explicitBucketBoundaries: [0.005, 0.01, 0.025, 0.05, 0.075, 0.1, 0.25, 0.5, 0.75, 1, 2.5, 5, 7.5, 10],
      },
    }),
    emailSends: counter("global_auth_email_send_operations", "Mails handed to the mail server, by type"),
    emailSendErrors: counter(
      "global_auth_email_send_errors",
      "Mails the mail server did not accept, by type",
    ),
    emailRateLimit: counter(
      "gotrue_email_rate_limit_counter",
      "Requests refused by the email send rate limit",
    ),
    smsSends: counter("authsvc_sms_send_operations", "Text messages handed to the SMS gateway"),
    smsSendErrors: counter("authsvc_sms_send_errors", "Text messages the SMS gateway did not accept"),
    hashSubmitted: counter("gotrue_generate_from_password_submitted", "Password hashes started"),
    hashCompleted: counter("gotrue_generate_from_password_completed", "Password hashes finished"),
    compareSubmitted: counter("gotrue_compare_hash_and_password_submitted", "Password verifications started"),
    compareCompleted: counter(
      "gotrue_compare_hash_and_password_completed",
      "Password verifications finished",
    ),
    signIns: counter("authsvc_sign_ins", "Sessions started, by authentication method"),
    signUps: counter("authsvc_sign_ups", "Users signed up (user_signedup audit entries committed)"),
    refreshRotations: counter("authsvc_refresh_token_rotations", "Refresh tokens rotated"),
    accountLockouts: counter(
      "authsvc_account_lockouts",
      "Sign-in identifiers locked after too many wrong passwords (LOCKOUT_*)",
    ),
    refreshReuse: counter("authsvc_refresh_token_reuse_detections", "Revoked refresh tokens presented again"),
    otpFailures: counter("authsvc_otp_failures", "One-time codes and links refused, by error code"),
    rateLimitRefusals: counter(
      "authsvc_rate_limit_refusals",
      "Requests refused by a rate limit, by error code",
    ),
    hookFailures: counter(
      "authsvc_hook_failures",
      "Auth hook runs that ended without a usable answer (an error answer, a timeout, an unreachable endpoint, a failing function), by hook",
    ),
  };
}
