import { describe, expect, it } from "vitest";
import { blankUser } from "../accounts/index.js";
import { signUp } from "../signup/index.js";
import { fakeDeps } from "../testing/index.js";
import { breakSms, smsCodeOf } from "../testing/messaging/message-helpers.js";
import { rollingBack } from "../testing/rolling-back-store.js";
import { sendSmsOtp } from "./send-otp-sms.js";

const signup = fakeDeps().settings.signup;
function setUp(settings: Parameters<typeof fakeDeps>[0] = {}) {
  const deps = fakeDeps(settings);
  rollingBack(deps.store);
  return deps;
}

describe("sendSmsOtp refusals", () => {
  it.each([
    [
      { signup: { ...signup, phoneEnabled: false } },
      {},
      "phone_provider_disabled",
      "Unsupported phone provider",
    ],
    [
      {},
      { channel: "whatsapp" },
      "validation_failed",
      "Invalid channel, supported values are 'sms' or 'whatsapp'. 'whatsapp' is only supported if Twilio or Twilio Verify is used as the provider.",
    ],
    [
      { sms: { ...fakeDeps().settings.sms, whatsapp: true } },
      { channel: "telegram" },
      "validation_failed",
      "Invalid channel, supported values are 'sms' or 'whatsapp'. 'whatsapp' is only supported if Twilio or Twilio Verify is used as the provider.",
    ],
    [{}, { phone: "123-invalid" }, "validation_failed", "Invalid phone number format (E.164 required)"],
    [{}, { createUser: false }, "otp_disabled", "Signups not allowed for otp"],
    [
      { signup: { ...signup, disabled: true } },
      {},
      "signup_disabled",
      "Signups not allowed for this instance",
    ],
  ])("with %j and %j refuses %s", async (settings, input, code, message) => {
    const deps = setUp(settings);
    expect(await sendSmsOtp(deps, { phone: "+15551234567", ...input })).toMatchObject({
      ok: false,
      error: { code, message },
    });
    expect(deps.store.tables.users.size).toBe(0);
    expect(deps.sms.sent).toEqual([]);
  });
});

describe("sendSmsOtp", () => {
  it("sends the code by WhatsApp when asked and the gateway carries it; by SMS for `sms` or no channel", async () => {
    const deps = setUp({ sms: { ...fakeDeps().settings.sms, whatsapp: true, maxFrequency: 0 } });
    expect((await sendSmsOtp(deps, { phone: "+15551234567", channel: "whatsapp" })).ok).toBe(true);
    expect((await sendSmsOtp(deps, { phone: "+15551234567", channel: "sms" })).ok).toBe(true);
    expect((await sendSmsOtp(deps, { phone: "+15551234567" })).ok).toBe(true);
    expect(deps.sms.sent.map((sms) => sms.channel ?? "sms")).toEqual(["whatsapp", "sms", "sms"]);
    expect(deps.sms.sent[0]?.to).toBe("15551234567");
  });

  it("signs up an unknown number without a password and texts it a code, stored hashed", async () => {
    const deps = setUp();
    expect(await sendSmsOtp(deps, { phone: "+1 555 123 4567", data: { a: 1 } })).toEqual({
      ok: true,
      value: { messageId: "sms-1" },
    });
    const [user] = deps.store.tables.users.values();
    expect(user).toMatchObject({
      phone: "15551234567",
      encryptedPassword: null,
      phoneConfirmedAt: null,
      confirmationSentAt: deps.clock.now(),
      userMetadata: { a: 1 },
    });
    const code = smsCodeOf(deps.sms.sent[0]);
    expect([...deps.store.tables.oneTimeTokens.values()]).toMatchObject([
      {
        type: "confirmation_token",
        relatesTo: "15551234567",
        otpHash: deps.tokens.hash(`15551234567${code}`),
      },
    ]);
  });

  it("texts an existing user at most once per SMS_MAX_FREQUENCY", async () => {
    const deps = setUp();
    const existing = blankUser({
      id: "u1",
      aud: "authenticated",
      role: "authenticated",
      createdAt: new Date(0),
    });
    deps.store.tables.users.set("u1", { ...existing, phone: "15551234567", phoneConfirmedAt: new Date(0) });
    expect((await sendSmsOtp(deps, { phone: "15551234567", createUser: false })).ok).toBe(true);
    deps.clock.advance(59_500);
    expect(await sendSmsOtp(deps, { phone: "15551234567" })).toMatchObject({
      ok: false,
      error: {
        code: "over_sms_send_rate_limit",
        message: "For security purposes, you can only request this after 1 seconds.",
      },
    });
    deps.clock.advance(500);
    expect(await sendSmsOtp(deps, { phone: "15551234567" })).toEqual({
      ok: true,
      value: { messageId: "sms-2" },
    });
    expect(deps.store.tables.users.size).toBe(1);
  });

  it("answers sms_send_failed when the gateway refuses, leaving no user or token; a retry works", async () => {
    const deps = setUp();
    const repair = breakSms(deps.sms);
    expect(await sendSmsOtp(deps, { phone: "15551234567" })).toMatchObject({
      ok: false,
      error: { code: "sms_send_failed" },
    });
    expect(deps.store.tables.users.size).toBe(0);
    expect(deps.store.tables.oneTimeTokens.size).toBe(0);
    repair();
    expect((await sendSmsOtp(deps, { phone: "15551234567" })).ok).toBe(true);
  });
});

describe("sendSmsOtp against pre-account takeover", () => {
  it("clears the password of an unconfirmed phone sign-up when a code is asked for that number", async () => {
    const deps = fakeDeps();
    // Someone signs up with a number they do not own and never confirms it.
    await signUp(deps, { phone: "+15557654321", password: "attackers-pw" });
    deps.clock.advance(120_000);
    expect((await sendSmsOtp(deps, { phone: "+15557654321" })).ok).toBe(true);
    const user = [...deps.store.tables.users.values()].find((u) => u.phone === "15557654321");
    expect(user?.encryptedPassword).toBeNull();
  });
});
