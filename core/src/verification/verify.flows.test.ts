import { describe, expect, it } from "vitest";
import { requestEmailChange, requestPhoneChange } from "../account-settings/index.js";
import { blankUser, type User } from "../accounts/index.js";
import { sendMagicLink, sendSmsOtp } from "../passwordless/index.js";
import { recoverPassword } from "../recovery/index.js";
import { signInWithPassword } from "../sessions/index.js";
import { signUp } from "../signup/index.js";
import { fakeDeps } from "../testing/index.js";
import { linkTokenOf, smsCodeOf } from "../testing/messaging/message-helpers.js";
import { sending } from "../testing/verification/sending.js";
import { verifyOtp } from "./verify.js";

const ID = "11111111-1111-4111-8111-111111111111";
const EXPIRED = { ok: false, error: expect.objectContaining({ code: "otp_expired" }) };

function withUser(fields: Partial<User>) {
  const deps = fakeDeps();
  const user = blankUser({
    id: ID,
    aud: "authenticated",
    role: "authenticated",
    createdAt: new Date("2025-01-01T00:00:00Z"),
    ...fields,
  });
  deps.store.tables.users.set(ID, user);
  return deps;
}
const confirmedAlice = () =>
  withUser({
    email: "alice@example.com",
    emailConfirmedAt: new Date("2025-01-02T00:00:00Z"),
    encryptedPassword: "plain$secret1",
  });
const sessionOf = (result: Awaited<ReturnType<typeof verifyOtp>>) => {
  if (!result.ok) throw result.error;
  if (result.value.kind !== "session") throw new Error("expected a session");
  return result.value;
};

describe("verifyOtp recovery and magic links", () => {
  it("signs in with a recovery code, answering type recovery; the link is then spent", async () => {
    const deps = confirmedAlice();
    await recoverPassword(deps, { email: "alice@example.com" });
    const mail = deps.mailer.sent[0];
    const done = sessionOf(
      await verifyOtp(deps, { type: "recovery", token: mail?.token, email: "alice@example.com" }),
    );
    expect(done).toMatchObject({
      type: "recovery",
      tokens: { user: { id: ID, lastSignInAt: deps.clock.now() } },
    });
    expect(await verifyOtp(deps, { type: "recovery", tokenHash: linkTokenOf(mail) })).toEqual(EXPIRED);
  });

  it("accepts a confirmed user's magic link by link or by code (type email)", async () => {
    const deps = confirmedAlice();
    await sendMagicLink(deps, { email: "alice@example.com" });
    const link = linkTokenOf(deps.mailer.sent[0]);
    expect(sessionOf(await verifyOtp(deps, { type: "magiclink", tokenHash: link })).type).toBe("magiclink");
    deps.clock.advance(60_000);
    await sendMagicLink(deps, { email: "alice@example.com" });
    const code = deps.mailer.sent[1]?.token;
    expect(
      sessionOf(await verifyOtp(deps, { type: "email", token: code, email: "alice@example.com" })).type,
    ).toBe("email");
  });

  it("confirms a new address with its magic link", async () => {
    const deps = fakeDeps();
    await sendMagicLink(deps, { email: "new@example.com" });
    const done = sessionOf(
      await verifyOtp(deps, { type: "magiclink", tokenHash: linkTokenOf(deps.mailer.sent[0]) }),
    );
    expect(done.tokens.user).toMatchObject({ email: "new@example.com", emailConfirmedAt: deps.clock.now() });
    expect(deps.store.tables.audit.map((e) => e.action)).toEqual([
      "user_confirmation_requested",
      "user_signedup",
      "login",
    ]);
  });
});

describe("verifyOtp against pre-account takeover", () => {
  it("an unconfirmed sign-up's password is cleared when the mailbox owner signs in by magic link", async () => {
    const deps = fakeDeps();
    // Someone who does not own the mailbox signs up with it and never confirms.
    await signUp(deps, { email: "victim@example.com", password: "attackers-pw" });
    deps.clock.advance(3_600_000);
    await sendMagicLink(deps, { email: "victim@example.com" });
    const link = linkTokenOf(deps.mailer.sent.at(-1));
    const done = sessionOf(await verifyOtp(deps, { type: "magiclink", tokenHash: link }));
    expect(done.tokens.user.encryptedPassword).toBeNull();
    expect(done.tokens.user.emailConfirmedAt).toEqual(deps.clock.now());
  });

  it("the sign-up's own confirmation keeps the password chosen at sign-up", async () => {
    const deps = fakeDeps();
    await signUp(deps, { email: "alice@example.com", password: "alices-pw" });
    const link = linkTokenOf(deps.mailer.sent[0]);
    const done = sessionOf(await verifyOtp(deps, { type: "signup", tokenHash: link }));
    expect(done.tokens.user.encryptedPassword).toBe("plain$alices-pw");
  });

  it("the sign-up's code typed as type email confirms the sign-up and keeps its password", async () => {
    const deps = fakeDeps();
    await signUp(deps, { email: "alice@example.com", password: "alices-pw" });
    const code = deps.mailer.sent[0]?.token;
    const done = sessionOf(await verifyOtp(deps, { type: "email", token: code, email: "alice@example.com" }));
    expect(done.type).toBe("email");
    expect(done.tokens.user).toMatchObject({
      encryptedPassword: "plain$alices-pw",
      emailConfirmedAt: deps.clock.now(),
    });
  });

  it("a magic-link code typed as type email still clears a password set by someone else", async () => {
    const deps = fakeDeps();
    await signUp(deps, { email: "victim@example.com", password: "attackers-pw" });
    deps.clock.advance(3_600_000);
    await sendMagicLink(deps, { email: "victim@example.com" });
    const mail = deps.mailer.sent.at(-1);
    expect(mail?.kind).toBe("magic_link");
    const done = sessionOf(
      await verifyOtp(deps, { type: "email", token: mail?.token, email: "victim@example.com" }),
    );
    expect(done.tokens.user.encryptedPassword).toBeNull();
    expect(done.tokens.user.emailConfirmedAt).toEqual(deps.clock.now());
  });

  it("the owner signing up after someone else took the address confirms an account without their password", async () => {
    const deps = fakeDeps();
    await signUp(deps, { email: "victim@example.com", password: "attackers-pw" });
    deps.clock.advance(3_600_000);
    // The owner signs up, is mailed a confirmation, and types its code as auth-js documents.
    await signUp(deps, { email: "victim@example.com", password: "victims-pw" });
    const mail = deps.mailer.sent.at(-1);
    expect(mail?.kind).toBe("confirmation");
    const done = sessionOf(
      await verifyOtp(deps, { type: "email", token: mail?.token, email: "victim@example.com" }),
    );
    expect(done.tokens.user.emailConfirmedAt).toEqual(deps.clock.now());
    expect(
      await signInWithPassword(deps, { email: "victim@example.com", password: "attackers-pw" }),
    ).toMatchObject({ error: { code: "invalid_credentials" } });
    expect(done.tokens.user.encryptedPassword).toBeNull();
  });

  it("signing up again with the same password before confirming keeps it", async () => {
    const deps = fakeDeps();
    await signUp(deps, { email: "alice@example.com", password: "alices-pw" });
    deps.clock.advance(3_600_000);
    await signUp(deps, { email: "alice@example.com", password: "alices-pw" });
    const link = linkTokenOf(deps.mailer.sent.at(-1));
    const done = sessionOf(await verifyOtp(deps, { type: "signup", tokenHash: link }));
    expect(done.tokens.user.encryptedPassword).toBe("plain$alices-pw");
    expect((await signInWithPassword(deps, { email: "alice@example.com", password: "alices-pw" })).ok).toBe(
      true,
    );
  });
});

describe("verifyOtp sms and phone_change", () => {
  it("confirms the phone with the SMS code; SMS_OTP_EXP applies", async () => {
    const deps = fakeDeps();
    await sendSmsOtp(deps, { phone: "+15551234567" });
    const code = smsCodeOf(deps.sms.sent[0]);
    const done = sessionOf(await verifyOtp(deps, { type: "sms", token: code, phone: "+1 555 123 4567" }));
    expect(done.tokens.user).toMatchObject({ phone: "15551234567", phoneConfirmedAt: deps.clock.now() });
    const identity = [...deps.store.tables.identities.values()][0];
    expect(identity?.identityData).toMatchObject({ phone_verified: true });

    deps.clock.advance(60_000);
    await sendSmsOtp(deps, { phone: "15551234567" });
    deps.clock.advance(60_001);
    const late = smsCodeOf(deps.sms.sent[1]);
    expect(await verifyOtp(deps, { type: "sms", token: late, phone: "15551234567" })).toEqual(EXPIRED);
  });

  it("refuses an unknown phone with 403", async () => {
    const deps = fakeDeps();
    expect(await verifyOtp(deps, { type: "sms", token: "123456", phone: "15550000000" })).toEqual(EXPIRED);
  });

  it("swaps in the new phone on phone_change", async () => {
    const deps = confirmedAlice();
    await sending(deps, async (repos, outbox) => {
      const user = await repos.users.lock(ID);
      if (!user) throw new Error("no user");
      return requestPhoneChange(deps, repos, {
        user,
        newPhone: "15557654321",
        now: deps.clock.now(),
        outbox,
      });
    });
    const code = smsCodeOf(deps.sms.sent[0]);
    expect(await verifyOtp(deps, { type: "phone_change", token: code, phone: "15550000000" })).toEqual(
      EXPIRED,
    );
    const done = sessionOf(
      await verifyOtp(deps, { type: "phone_change", token: code, phone: "15557654321" }),
    );
    expect(done).toMatchObject({ type: "phone_change" });
    expect(done.tokens.user).toMatchObject({
      phone: "15557654321",
      phoneChange: null,
      phoneConfirmedAt: deps.clock.now(),
    });
  });
});

describe("verifyOtp email_change", () => {
  it("answers a message after the first confirmation and a session after the second", async () => {
    const deps = confirmedAlice();
    await sending(deps, async (repos, outbox) => {
      const user = await repos.users.lock(ID);
      if (!user) throw new Error("no user");
      return requestEmailChange(deps, repos, {
        user,
        newEmail: "alice@new.example",
        redirectTo: deps.settings.siteUrl,
        now: deps.clock.now(),
        outbox,
      });
    });
    const [toNew, toCurrent] = deps.mailer.sent;
    expect(await verifyOtp(deps, { type: "email_change", tokenHash: linkTokenOf(toNew) })).toEqual({
      ok: true,
      value: {
        kind: "message",
        message: "Confirmation link accepted. Please proceed to confirm link sent to the other email",
        redirectTo: "http://localhost:3000",
      },
    });
    expect(deps.store.tables.sessions.size).toBe(0);
    const done = sessionOf(
      await verifyOtp(deps, { type: "email_change", token: toCurrent?.token, email: "alice@example.com" }),
    );
    expect(done.tokens.user).toMatchObject({ email: "alice@new.example", emailChange: null });
  });
});
