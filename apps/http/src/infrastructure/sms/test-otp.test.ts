import { describe, expect, it } from "vitest";
import { loadConfig } from "../../composition/config.js";

const production = {
  AUTHSVC_DB_DATABASE_URL: "postgres://authsvc:pw@db.internal:5432/authsvc",
  AUTHSVC_SITE_URL: "https://app.example.com",
  AUTHSVC_API_EXTERNAL_URL: "https://auth.example.com",
  AUTHSVC_JWT_SECRET: "jwt-secret-for-tests-0123456789",
};
const load = (extra: Record<string, string>) => loadConfig({ ...production, ...extra });

describe("test phone numbers (SMS_TEST_OTP)", () => {
  it("reads the numbers as the reference normalises them, and their end", () => {
    const result = load({
      AUTHSVC_SMS_TEST_OTP: "+1 555 000 7777:123456, 447700900123 :654321",
      AUTHSVC_SMS_TEST_OTP_VALID_UNTIL: "2030-01-02T03:04:05+01:00",
    });
    if (!result.ok) throw new Error(result.problems.join("\n"));
    expect(result.config.sms.testOtp).toEqual({
      codes: new Map([
        ["15550007777", "123456"],
        ["447700900123", "654321"],
      ]),
      validUntil: new Date("2030-01-02T02:04:05Z"),
    });
  });

  it.each([
    ["AUTHSVC_SMS_TEST_OTP", "15550007777"],
    ["AUTHSVC_SMS_TEST_OTP", "x:1"],
    ["AUTHSVC_SMS_TEST_OTP", "15550007777:"],
    ["AUTHSVC_SMS_TEST_OTP", "+1555:1"],
    ["AUTHSVC_SMS_TEST_OTP_VALID_UNTIL", "tomorrow"],
    ["AUTHSVC_SMS_TEST_OTP_VALID_UNTIL", "2030-01-02"],
  ])("refuses %s=%s, naming it", (name, value) => {
    const result = load({ [name]: value });
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.problems.join("\n")).toContain(name);
  });
});
