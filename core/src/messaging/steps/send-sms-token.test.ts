import { describe, expect, it } from "vitest";
import { blankUser } from "../../accounts/index.js";
import { fakeDeps } from "../../testing/index.js";
import { breakSms, smsCodeOf } from "../../testing/messaging/message-helpers.js";
import { sending } from "../../testing/verification/sending.js";
import { type SendSmsTokenInput, sendSmsToken } from "./send-sms-token.js";

const send = (deps: ReturnType<typeof fakeDeps>, given: Omit<SendSmsTokenInput, "outbox">) =>
  sending(deps, (repos, outbox) => sendSmsToken(deps, repos, { ...given, outbox }));

const now = new Date("2026-01-01T00:00:00Z");
const NO_TEST_OTP = { codes: new Map<string, string>(), validUntil: null };
const user = blankUser({ id: "u1", aud: "authenticated", role: "authenticated", createdAt: now });

describe("sendSmsToken", () => {
  it("texts a code of SMS_OTP_LENGTH digits, storing only hash(phone + code)", async () => {
    const deps = fakeDeps({
      sms: {
        otpExp: 60,
        otpLength: 7,
        maxFrequency: 60,
        rateLimitPerHour: 30,
        testOtp: NO_TEST_OTP,
        whatsapp: false,
      },
    });
    const input = { user, tokenType: "phone_change_token", phone: "15551234567", now } as const;
    const sent = await send(deps, input);
    expect(sent).toMatchObject({ ok: true });
    expect(sent.outbox.messageId).toBe("sms-1");
    const code = smsCodeOf(deps.sms.sent[0]);
    expect(code).toMatch(/^\d{7}$/);
    expect(deps.sms.sent).toEqual([{ to: "15551234567", body: `Your code is ${code}` }]);
    const stored = [...deps.store.tables.oneTimeTokens.values()];
    expect(stored).toEqual([
      {
        id: expect.any(String),
        userId: "u1",
        type: "phone_change_token",
        tokenHash: expect.any(String),
        otpHash: deps.tokens.hash(`15551234567${code}`),
        relatesTo: "15551234567",
        createdAt: now,
      },
    ]);
    expect(JSON.stringify(stored)).not.toContain(`"${code}"`);
  });

  it("answers the gateway's error, removing the code", async () => {
    const deps = fakeDeps();
    breakSms(deps.sms);
    const input = { user, tokenType: "confirmation_token", phone: "15551234567", now } as const;
    expect(await send(deps, input)).toMatchObject({ ok: false, error: { code: "sms_send_failed" } });
    expect(deps.store.tables.oneTimeTokens.size).toBe(0);
  });
});

describe("sendSmsToken hourly cap", () => {
  it("refuses with 429 over_sms_send_rate_limit once RATE_LIMIT_SMS_SENT texts went out this hour", async () => {
    const deps = fakeDeps({
      sms: {
        otpExp: 60,
        otpLength: 6,
        maxFrequency: 60,
        rateLimitPerHour: 2,
        testOtp: NO_TEST_OTP,
        whatsapp: false,
      },
    });
    const user = blankUser({
      id: "00000000-0000-4000-8000-0000000000aa",
      aud: "a",
      role: "r",
      createdAt: deps.clock.now(),
    });
    const texted = () =>
      send(deps, {
        user,
        tokenType: "confirmation_token",
        phone: "15550001111",
        now: deps.clock.now(),
      });
    expect((await texted()).ok).toBe(true);
    expect((await texted()).ok).toBe(true);
    expect(await texted()).toMatchObject({
      ok: false,
      error: { code: "over_sms_send_rate_limit" },
    });
    expect(deps.sms.sent).toHaveLength(2);
    deps.clock.advance(3_600_000);
    expect((await texted()).ok).toBe(true);
  });
});

describe("sendSmsToken to a test number", () => {
  const testOtp = (validUntil: Date | null) => ({
    otpExp: 60,
    otpLength: 6,
    maxFrequency: 60,
    rateLimitPerHour: 1,
    testOtp: { codes: new Map([["15550009999", "424242"]]), validUntil },
    whatsapp: false,
  });

  it("stores the fixed code's hash, texts nothing and takes nothing from the hourly cap", async () => {
    const deps = fakeDeps({ sms: testOtp(null) });
    const input = { user, tokenType: "confirmation_token", phone: "15550009999", now } as const;
    for (let i = 0; i < 3; i++) {
      const sent = await send(deps, input);
      expect(sent).toMatchObject({ ok: true });
      expect(sent.outbox.messageId).toBe("test-otp");
    }
    expect(deps.sms.sent).toEqual([]);
    const stored = [...deps.store.tables.oneTimeTokens.values()];
    expect(stored.at(-1)?.otpHash).toBe(deps.tokens.hash("15550009999424242"));
    // The cap of one is still whole: another number's code goes out.
    const other = await send(deps, { ...input, phone: "15551234567" });
    expect(other).toMatchObject({ ok: true });
    expect(deps.sms.sent).toHaveLength(1);
  });

  it("is an ordinary number from SMS_TEST_OTP_VALID_UNTIL on", async () => {
    const deps = fakeDeps({ sms: testOtp(now) });
    const input = { user, tokenType: "confirmation_token", phone: "15550009999", now } as const;
    const sent = await send(deps, input);
    expect(sent.outbox.messageId).toBe("sms-1");
    expect(smsCodeOf(deps.sms.sent[0])).not.toBe("424242");
  });
});
