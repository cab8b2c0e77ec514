/** The kinds of the test phone numbers' variables (`SMS_TEST_OTP`, `SMS_TEST_OTP_VALID_UNTIL`). */
import * as v from "valibot";
import type { Kind } from "../../config/kinds.js";

/** A number's key as the reference normalises it: without a leading `+` and without spaces. */
function phoneKey(phone: string): string {
  return phone.trim().replace(/^\+/, "").replace(/\s+/g, "");
}

/** `phone:code,…` into a map; null when an entry is not a number (digits) and a non-empty code. */
export function parseTestOtp(value: string): ReadonlyMap<string, string> | null {
  const codes = new Map<string, string>();
  for (const entry of value.split(",")) {
    if (entry.trim() === "") continue;
    const colon = entry.indexOf(":");
    if (colon < 0) return null;
    const phone = phoneKey(entry.slice(0, colon));
    const code = entry.slice(colon + 1).trim();
    if (!/^[1-9]\d{6,14}$/.test(phone) || code === "") return null;
    codes.set(phone, code);
  }
  return codes;
}

export const testOtpMap: Kind<ReadonlyMap<string, string>> = {
  type: "comma-separated `phone:code` pairs",
  schema: v.pipe(
    v.string(),
    v.check((text) => parseTestOtp(text) !== null, "expected `phone:code` pairs separated by commas"),
    v.transform((text) => parseTestOtp(text) ?? new Map()),
  ),
};

/** An RFC 3339 timestamp (`2026-12-31T23:59:59Z`); empty: none. */
export const timestamp: Kind<Date | null> = {
  type: "RFC 3339 timestamp",
  schema: v.pipe(
    v.string(),
    v.trim(),
    v.check(
      (text) =>
        text === "" ||
        (/^\d{4}-\d{2}-\d{2}[Tt ]\d{2}:\d{2}:\d{2}(\.\d+)?([Zz]|[+-]\d{2}:\d{2})$/.test(text) &&
          !Number.isNaN(Date.parse(text))),
      "expected an RFC 3339 timestamp, e.g. 2026-12-31T23:59:59Z",
    ),
    v.transform((text) => (text === "" ? null : new Date(text))),
  ),
};
