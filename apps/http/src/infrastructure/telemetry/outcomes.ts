import type { Attributes } from "@opentelemetry/api";
import type { Instruments } from "./instruments.js";

/** Codes of a refused one-time code or link (`/verify`, reauthentication nonces). */
const OTP_FAILURES = new Set(["otp_expired", "reauthentication_not_valid"]);

/** What the HTTP layer knows once a request is answered. */
export interface Answered {
  readonly route: string;
  readonly status: number;
  /** The `x-sb-error-code` of a refusal. */
  readonly code: string | undefined;
}

/**
 * Counts the outcomes that only a refusal tells: core returns them as failures, the HTTP layer
 * answers them with their code, and that code is read here — so core stays free of telemetry.
 */
export function countOutcome(instruments: Instruments, answered: Answered): void {
  const { code, route } = answered;
  if (code === undefined) return;
  if (code === "refresh_token_already_used") instruments.refreshReuse.add(1);
  else if (OTP_FAILURES.has(code)) instruments.otpFailures.add(1, { code, "http.route": route });
  if (answered.status === 429) {
    const attributes: Attributes = { code, "http.route": route };
    instruments.rateLimitRefusals.add(1, attributes);
    if (code === "over_email_send_rate_limit") instruments.emailRateLimit.add(1, { path: route });
  }
}
