import { describe, expect, it } from "vitest";
import { blankUser } from "../../accounts/index.js";
import { fakeDeps } from "../../testing/index.js";
import { breakSms, smsCodeOf } from "../../testing/verification/message-helpers.js";
import { sendSmsToken } from "./send-sms-token.js";

const now = new Date("2026-01-01T00:00:00Z");
const user = blankUser({ id: "u1", aud: "authenticated", role: "authenticated", createdAt: now });

describe("sendSmsToken", () => {
  it("texts a code of SMS_OTP_LENGTH digits, storing only hash(phone + code)", async () => {
    const deps = fakeDeps({ sms: { otpExp: 60, otpLength: 7, maxFrequency: 60, rateLimitPerHour: 30 } });
    const input = { user, tokenType: "phone_change_token", phone: "15551234567", now } as const;
    expect(await sendSmsToken(deps, deps.store, input)).toEqual({ ok: true, value: { messageId: "sms-1" } });
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

  it("rejects with the gateway's error", async () => {
    const deps = fakeDeps();
    breakSms(deps.sms);
    const input = { user, tokenType: "confirmation_token", phone: "15551234567", now } as const;
    await expect(sendSmsToken(deps, deps.store, input)).rejects.toMatchObject({ code: "sms_send_failed" });
  });
});

describe("sendSmsToken hourly cap", () => {
  it("refuses with 429 over_sms_send_rate_limit once RATE_LIMIT_SMS_SENT texts went out this hour", async () => {
    const deps = fakeDeps({ sms: { otpExp: 60, otpLength: 6, maxFrequency: 60, rateLimitPerHour: 2 } });
    const user = blankUser({
      id: "00000000-0000-4000-8000-0000000000aa",
      aud: "a",
      role: "r",
      createdAt: deps.clock.now(),
    });
    const send = () =>
      sendSmsToken(deps, deps.store, {
        user,
        tokenType: "confirmation_token",
        phone: "15550001111",
        now: deps.clock.now(),
      });
    expect((await send()).ok).toBe(true);
    expect((await send()).ok).toBe(true);
    expect(await send()).toMatchObject({
      ok: false,
      error: { code: "over_sms_send_rate_limit" },
    });
    expect(deps.sms.sent).toHaveLength(2);
    deps.clock.advance(3_600_000);
    expect((await send()).ok).toBe(true);
  });
});
