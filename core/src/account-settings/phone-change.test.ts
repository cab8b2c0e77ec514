import { describe, expect, it } from "vitest";
import { blankUser, type User } from "../accounts/index.js";
import { failures } from "../failures.js";
import type { AuthSettings } from "../settings.js";
import { defaultAuthSettings, fakeDeps } from "../testing/index.js";
import { rollingBack } from "../testing/rolling-back-store.js";
import { sending } from "../testing/verification/sending.js";
import { applyPhoneChange, resendPhoneChange } from "../verification/index.js";
import { requestPhoneChange } from "./request-phone-change.js";

const ID = "11111111-1111-4111-8111-111111111111";
const OTHER = "22222222-2222-4222-8222-222222222222";
const failure = (code: string, message: string) => ({
  ok: false,
  error: { code, message },
});
const smsAutoconfirm: Partial<AuthSettings> = {
  signup: { ...defaultAuthSettings().signup, smsAutoconfirm: true },
};

/** Alice (confirmed phone 15550100, no identity yet) and Bob (phone 15550199). */
function setUp(settings: Partial<AuthSettings> = {}, alice: Partial<User> = {}) {
  const deps = fakeDeps(settings);
  const created = deps.clock.now();
  const base = { aud: "authenticated", role: "authenticated", createdAt: created };
  deps.store.tables.users.set(
    ID,
    blankUser({ ...base, id: ID, phone: "15550100", phoneConfirmedAt: created, ...alice }),
  );
  deps.store.tables.users.set(OTHER, blankUser({ ...base, id: OTHER, phone: "15550199" }));
  deps.clock.advance(3_600_000);
  const stored = () => deps.store.tables.users.get(ID) as User;
  const request = (newPhone: string) =>
    sending(deps, async (repos, outbox) =>
      requestPhoneChange(deps, repos, { user: stored(), newPhone, now: deps.clock.now(), outbox }),
    );
  /** Enters the last texted code as `/verify` type `phone_change` does, then applies the change. */
  const enterCode = () =>
    deps.store.transaction(async (repos) => {
      const last = deps.sms.sent.at(-1);
      const code = /Your code is (\d+)/.exec(last?.body ?? "")?.[1] ?? "";
      const phone = last?.to ?? "";
      const consumed = await repos.oneTimeTokens.consumeByOtp(phone, deps.tokens.hash(phone + code), [
        "phone_change_token",
      ]);
      if (consumed === null) throw new Error("the code is not live");
      return applyPhoneChange(deps, repos, { user: stored(), now: deps.clock.now() });
    });
  return { deps, stored, request, enterCode };
}

describe("requestPhoneChange", () => {
  it("texts a code to the new number and records the pending change, storing only hashes", async () => {
    const { deps, request, stored } = setUp();
    expect(await request("15550111")).toMatchObject({
      ok: true,
      value: { phone: "15550100", phoneChange: "15550111" },
    });
    expect(stored()).toMatchObject({ phoneChange: "15550111", phoneChangeSentAt: deps.clock.now() });
    expect(deps.sms.sent).toEqual([{ to: "15550111", body: "Your code is 000001" }]);
    expect([...deps.store.tables.oneTimeTokens.values()]).toEqual([
      expect.objectContaining({
        type: "phone_change_token",
        relatesTo: "15550111",
        otpHash: "h(15550111000001)",
      }),
    ]);
  });

  it("refuses a number another user has, texting nothing", async () => {
    const { deps, request, stored } = setUp();
    expect(await request("15550199")).toMatchObject(
      failure("phone_exists", "Phone number already registered by another user"),
    );
    expect(stored().phoneChange).toBeNull();
    expect(deps.sms.sent).toEqual([]);
  });

  it("refuses a new code within SMS_MAX_FREQUENCY", async () => {
    const { deps, request } = setUp();
    await request("15550111");
    deps.clock.advance(59_001);
    expect(await request("15550112")).toMatchObject(
      failure(
        "over_sms_send_rate_limit",
        "For security purposes, you can only request this after 1 seconds.",
      ),
    );
    deps.clock.advance(999);
    expect(await request("15550112")).toMatchObject({ ok: true });
  });

  it("answers the gateway's refusal, leaving nothing pending", async () => {
    const { deps, request, stored } = setUp();
    rollingBack(deps.store);
    deps.sms.fail = failures.smsSendFailed();
    expect(await request("15550111")).toMatchObject(failure("sms_send_failed", "Error sending SMS"));
    expect(stored()).toMatchObject({ phoneChange: null, phoneChangeSentAt: null });
    expect(deps.store.tables.oneTimeTokens.size).toBe(0);
  });

  it("applies the change at once under SMS autoconfirm, with a phone identity", async () => {
    const { deps, request, stored } = setUp(smsAutoconfirm);
    await request("15550111");
    expect(stored()).toMatchObject({
      phone: "15550111",
      phoneConfirmedAt: deps.clock.now(),
      phoneChange: null,
      appMetadata: { provider: "phone", providers: ["phone"] },
    });
    expect(deps.sms.sent).toEqual([]);
    expect([...deps.store.tables.identities.values()].map((i) => i.identityData)).toEqual([
      { sub: ID, phone: "15550111", email_verified: false, phone_verified: true },
    ]);
  });
});

describe("applyPhoneChange", () => {
  it("swaps in the new number once its code is entered", async () => {
    const { deps, request, enterCode, stored } = setUp({}, { isAnonymous: true });
    await request("15550111");
    deps.clock.advance(30_000);
    expect(await enterCode()).toMatchObject({ ok: true, value: { phone: "15550111" } });
    expect(stored()).toMatchObject({
      phone: "15550111",
      phoneConfirmedAt: deps.clock.now(),
      phoneChange: null,
      phoneChangeSentAt: null,
      isAnonymous: false,
    });
    expect([...deps.store.tables.identities.values()]).toEqual([
      expect.objectContaining({
        provider: "phone",
        identityData: expect.objectContaining({ phone: "15550111" }),
      }),
    ]);
    expect(deps.store.tables.audit).toEqual([
      { action: "user_modified", actorId: ID, actorUsername: "15550111", at: deps.clock.now() },
    ]);
  });

  it("refuses when the number was taken meanwhile", async () => {
    const { deps, request, enterCode, stored } = setUp();
    await request("15550111");
    const bob = deps.store.tables.users.get(OTHER) as User;
    deps.store.tables.users.set(OTHER, { ...bob, phone: "15550111" });
    expect(await enterCode()).toMatchObject(
      failure("phone_exists", "Phone number already registered by another user"),
    );
    expect(stored().phone).toBe("15550100");
  });

  it("refuses when nothing is pending", async () => {
    const { deps, stored } = setUp();
    const result = await deps.store.transaction((repos) =>
      applyPhoneChange(deps, repos, { user: stored(), now: deps.clock.now() }),
    );
    expect(result).toMatchObject(failure("otp_expired", "Token has expired or is invalid"));
  });
});

describe("resendPhoneChange", () => {
  it("answers {} and texts nothing for an unknown number or nothing pending", async () => {
    const { deps } = setUp();
    expect(await resendPhoneChange(deps, { phone: "+15550177" })).toEqual({ ok: true, value: {} });
    expect(await resendPhoneChange(deps, { phone: "+15550100" })).toEqual({ ok: true, value: {} });
    expect(deps.sms.sent).toEqual([]);
  });

  it("texts a new code to the pending number after the gap; the old code no longer works", async () => {
    const { deps, request, enterCode } = setUp();
    await request("15550111");
    expect(await resendPhoneChange(deps, { phone: "+1 555 0100" })).toMatchObject({
      ok: false,
      error: { code: "over_sms_send_rate_limit" },
    });
    deps.clock.advance(60_000);
    expect(await resendPhoneChange(deps, { phone: "+15550100" })).toEqual({
      ok: true,
      value: { messageId: "sms-2" },
    });
    expect(deps.sms.sent.map((s) => s.body)).toEqual(["Your code is 000001", "Your code is 000002"]);
    const stale = await deps.store.transaction((repos) =>
      repos.oneTimeTokens.consumeByOtp("15550111", "h(15550111000001)", ["phone_change_token"]),
    );
    expect(stale).toBeNull();
    expect(await enterCode()).toMatchObject({ ok: true, value: { phone: "15550111" } });
  });
});
