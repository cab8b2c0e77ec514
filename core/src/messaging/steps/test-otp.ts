import type { KernelSettings } from "../../kernel/index.js";

/**
 * The fixed code of a test phone number (`SMS_TEST_OTP`), or null: for any other number, and for
 * every number once `SMS_TEST_OTP_VALID_UNTIL` has passed. `phone` is E.164 digits without `+`.
 */
export function testOtpFor(sms: KernelSettings["sms"], phone: string, now: Date): string | null {
  const { codes, validUntil } = sms.testOtp;
  if (validUntil !== null && now.getTime() >= validUntil.getTime()) return null;
  return codes.get(phone) ?? null;
}
