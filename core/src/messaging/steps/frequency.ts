import { failures } from "../../failures.js";
import type { AuthError } from "../../kernel/index.js";

/**
 * The refusal of a message asked for too soon after the previous one (`SMTP_MAX_FREQUENCY`,
 * `SMS_MAX_FREQUENCY`, the magic-link gap), or null when `gapSeconds` have passed since `sentAt`.
 * The message names the whole seconds left, rounded up so that waiting that long always suffices.
 */
export function tooSoon(
  sentAt: Date | null,
  gapSeconds: number,
  now: Date,
  channel: "email" | "sms",
): AuthError | null {
  if (sentAt === null) return null;
  const remainingMs = sentAt.getTime() + gapSeconds * 1000 - now.getTime();
  if (remainingMs <= 0) return null;
  const seconds = Math.ceil(remainingMs / 1000);
  return channel === "email" ? failures.emailTooSoon(seconds) : failures.smsTooSoon(seconds);
}
