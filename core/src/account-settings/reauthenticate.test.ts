import { describe, expect, it } from "vitest";
import { blankUser, type User } from "../accounts/index.js";
import { failures } from "../failures.js";
import type { AuthSettings } from "../settings.js";
import { defaultAuthSettings, fakeDeps } from "../testing/index.js";
import { rollingBack } from "../testing/rolling-back-store.js";
import { reauthenticate } from "./reauthenticate.js";
import { updateUser } from "./update-user.js";

const ID = "11111111-1111-4111-8111-111111111111";
const failure = (code: string, message: string) => ({
  ok: false,
  error: { code, message },
});
const invalidNonce = failure(
  "reauthentication_not_valid",
  "Reauthentication failed: nonce is invalid or has expired",
);

/** A user with the given channels (confirmed unless said otherwise) and password "secret123". */
function setUp(alice: Partial<User>, settings: Partial<AuthSettings> = {}) {
  const deps = fakeDeps({ updatePasswordRequiresReauthentication: true, ...settings });
  const created = deps.clock.now();
  deps.store.tables.users.set(
    ID,
    blankUser({
      id: ID,
      aud: "authenticated",
      role: "authenticated",
      createdAt: created,
      encryptedPassword: "plain$secret123",
      ...alice,
    }),
  );
  deps.clock.advance(3_600_000);
  const stored = () => deps.store.tables.users.get(ID) as User;
  const changePassword = (password: string, nonce: string) =>
    updateUser(deps, { userId: ID, sessionId: null, password, nonce });
  return { deps, stored, changePassword, created };
}

const byEmail = { email: "alice@example.com", emailConfirmedAt: new Date("2026-01-01T00:00:00Z") };
const byPhone = { phone: "15550100", phoneConfirmedAt: new Date("2026-01-01T00:00:00Z") };

describe("reauthenticate", () => {
  it("mails a nonce (a code, no link) to a user with an email and keeps only its hashes", async () => {
    const { deps, stored } = setUp({ ...byEmail, ...byPhone });
    expect(await reauthenticate(deps, { userId: ID })).toEqual({ ok: true, value: {} });
    expect(deps.mailer.sent).toEqual([
      { kind: "reauthentication", to: "alice@example.com", email: "alice@example.com", token: "000001" },
    ]);
    expect(deps.sms.sent).toEqual([]);
    expect(stored()).toMatchObject({
      reauthenticationToken: "h(000001)",
      reauthenticationSentAt: deps.clock.now(),
    });
    expect([...deps.store.tables.oneTimeTokens.values()]).toEqual([
      expect.objectContaining({
        type: "reauthentication_token",
        relatesTo: "alice@example.com",
        otpHash: "h(alice@example.com000001)",
      }),
    ]);
    expect(deps.store.tables.audit).toEqual([
      {
        action: "user_reauthenticate_requested",
        actorId: ID,
        actorUsername: "15550100",
        at: deps.clock.now(),
      },
    ]);
  });

  it("draws the nonce with MAILER_OTP_LENGTH digits", async () => {
    const { deps } = setUp(byEmail, { mailer: { ...defaultAuthSettings().mailer, otpLength: 8 } });
    await reauthenticate(deps, { userId: ID });
    expect(deps.mailer.sent[0]?.token).toBe("00000001");
  });

  it("lets the mailed nonce change the password once, within MAILER_OTP_EXP", async () => {
    const { deps, stored, changePassword } = setUp(byEmail);
    await reauthenticate(deps, { userId: ID });
    deps.clock.advance(3_600_000);
    expect(await changePassword("new-secret", "000001")).toMatchObject({ ok: true });
    expect(stored()).toMatchObject({ encryptedPassword: "plain$new-secret", reauthenticationToken: null });
    expect(deps.store.tables.oneTimeTokens.size).toBe(0);
    expect(await changePassword("newer-secret", "000001")).toMatchObject(invalidNonce);
  });

  it("texts the nonce to a user with only a phone, answering the message id", async () => {
    const { deps } = setUp(byPhone);
    expect(await reauthenticate(deps, { userId: ID })).toEqual({ ok: true, value: { messageId: "sms-1" } });
    expect(deps.sms.sent).toEqual([{ to: "15550100", body: "Your code is 000001" }]);
    expect(deps.mailer.sent).toEqual([]);
  });

  it("accepts a texted nonce for SMS_OTP_EXP only", async () => {
    const { deps, changePassword } = setUp(byPhone);
    await reauthenticate(deps, { userId: ID });
    deps.clock.advance(60_001);
    expect(await changePassword("new-secret", "000001")).toMatchObject(invalidNonce);
    deps.clock.advance(60_000);
    await reauthenticate(deps, { userId: ID });
    deps.clock.advance(60_000);
    expect(await changePassword("new-secret", "000002")).toMatchObject({ ok: true });
  });

  it("refuses a user with neither an email nor a phone", async () => {
    const { deps } = setUp({ isAnonymous: true });
    expect(await reauthenticate(deps, { userId: ID })).toMatchObject(
      failure("validation_failed", "Reauthentication requires the user to have an email or a phone number"),
    );
  });

  it("refuses an unconfirmed email, and an unconfirmed phone", async () => {
    const email = setUp({ email: "alice@example.com", ...byPhone });
    expect(await reauthenticate(email.deps, { userId: ID })).toMatchObject(
      failure("email_not_confirmed", "Please verify your email first."),
    );
    const phone = setUp({ phone: "15550100" });
    expect(await reauthenticate(phone.deps, { userId: ID })).toMatchObject(
      failure("phone_not_confirmed", "Please verify your phone first."),
    );
    expect([...email.deps.mailer.sent, ...phone.deps.sms.sent]).toEqual([]);
  });

  it("refuses a new nonce within SMTP_MAX_FREQUENCY by email", async () => {
    const { deps } = setUp(byEmail);
    await reauthenticate(deps, { userId: ID });
    deps.clock.advance(899_000);
    expect(await reauthenticate(deps, { userId: ID })).toMatchObject(
      failure(
        "over_email_send_rate_limit",
        "For security purposes, you can only request this after 1 seconds.",
      ),
    );
    deps.clock.advance(1_000);
    expect(await reauthenticate(deps, { userId: ID })).toMatchObject({ ok: true });
  });

  it("refuses a new nonce within SMS_MAX_FREQUENCY by phone", async () => {
    const { deps } = setUp(byPhone);
    await reauthenticate(deps, { userId: ID });
    deps.clock.advance(30_000);
    expect(await reauthenticate(deps, { userId: ID })).toMatchObject(
      failure(
        "over_sms_send_rate_limit",
        "For security purposes, you can only request this after 30 seconds.",
      ),
    );
  });

  it("answers a refused send as the error it is, leaving no nonce behind", async () => {
    const { deps, stored } = setUp(byEmail);
    rollingBack(deps.store);
    deps.mailer.send = async () => {
      throw failures.emailSendFailed("reauthentication");
    };
    expect(await reauthenticate(deps, { userId: ID })).toMatchObject(
      failure("email_send_failed", "Error sending reauthentication email"),
    );
    expect(stored()).toMatchObject({ reauthenticationToken: null, reauthenticationSentAt: null });
    expect(deps.store.tables.oneTimeTokens.size).toBe(0);
    // Sent once the request has committed: the audit keeps the attempt.
    expect(deps.store.tables.audit.map((e) => e.action)).toEqual(["user_reauthenticate_requested"]);
  });

  it("answers 404 for a user that is gone", async () => {
    const { deps } = setUp(byEmail);
    expect(await reauthenticate(deps, { userId: "33333333-3333-4333-8333-333333333333" })).toMatchObject(
      failure("user_not_found", "User not found"),
    );
  });
});
