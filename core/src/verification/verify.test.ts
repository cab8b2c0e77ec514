import { describe, expect, it } from "vitest";
import { signUp } from "../signup/index.js";
import { fakeDeps } from "../testing/index.js";
import { linkTokenOf } from "../testing/messaging/message-helpers.js";
import { type VerifyInput, verifyOtp } from "./verify.js";

const EXPIRED = {
  ok: false,
  error: expect.objectContaining({
    code: "otp_expired",
    message: "Token has expired or is invalid",
  }),
};

/** Deps where alice@example.com signed up and got her confirmation mail. */
async function signedUp(settings: Parameters<typeof fakeDeps>[0] = {}) {
  const deps = fakeDeps(settings);
  const result = await signUp(deps, { email: "alice@example.com", password: "secret1" });
  if (!result.ok || result.value.kind !== "user") throw new Error("sign-up failed");
  const mail = deps.mailer.sent[0];
  return { deps, user: result.value.user, code: mail?.token ?? "", linkToken: linkTokenOf(mail) };
}

const invalid = (message: string) => ({
  ok: false,
  error: expect.objectContaining({ code: "validation_failed", message }),
});

describe("verifyOtp input", () => {
  it.each<[VerifyInput, string]>([
    [
      { type: "signup", token: "1", tokenHash: "x", email: "a@x.io" },
      "Only the token or the token hash should be provided",
    ],
    [{ type: "signup", email: "a@x.io" }, "Verify requires a token or a token hash"],
    [{ type: "signup", tokenHash: "x", email: "a@x.io" }, "Only the token_hash and type should be provided"],
    [
      { type: "sms", tokenHash: "x", phone: "15551234567" },
      "Only the token_hash and type should be provided",
    ],
    [{ type: "signup", token: "123456" }, "An email address is required"],
    [{ type: "sms", token: "123456", phone: "12-invalid" }, "Invalid phone number format (E.164 required)"],
    [{ type: "bogus" as "signup", tokenHash: "x" }, "Unsupported verification type"],
  ])("refuses %j with 400: %s", async (input, message) => {
    const { deps } = await signedUp();
    expect(await verifyOtp(deps, input)).toEqual(invalid(message));
    expect(deps.store.tables.oneTimeTokens.size).toBe(1);
  });
});

describe("verifyOtp signup", () => {
  it("by link confirms the email, signs in with amr otp and answers the requested type", async () => {
    const { deps, user, linkToken } = await signedUp();
    deps.clock.advance(5_000);
    const now = deps.clock.now();
    const result = await verifyOtp(deps, { type: "signup", tokenHash: linkToken });
    if (!result.ok) throw result.error;
    if (result.value.kind !== "session") throw new Error("expected a session");
    expect(result.value).toMatchObject({ type: "signup", redirectTo: "http://localhost:3000" });
    const { tokens } = result.value;
    expect(tokens.user).toMatchObject({ id: user.id, emailConfirmedAt: now, lastSignInAt: now });
    expect(await deps.signer.verify(tokens.accessToken)).toMatchObject({
      sub: user.id,
      amr: [{ method: "otp", timestamp: now.getTime() / 1000 }],
    });
    expect(deps.store.tables.users.get(user.id)).toMatchObject({ emailConfirmedAt: now, lastSignInAt: now });
    const identity = [...deps.store.tables.identities.values()].find((i) => i.userId === user.id);
    expect(identity?.identityData).toMatchObject({ email_verified: true });
    expect(deps.store.tables.audit.map((e) => e.action)).toEqual([
      "user_confirmation_requested",
      "user_signedup",
      "login",
    ]);
    expect(deps.store.tables.sessions.has(tokens.session.id)).toBe(true);
  });

  it("by code with the address in any case", async () => {
    const { deps, code } = await signedUp();
    const result = await verifyOtp(deps, { type: "signup", token: code, email: "ALICE@example.com" });
    expect(result).toMatchObject({ ok: true, value: { kind: "session", type: "signup" } });
  });

  it("accepts either form once: the link after the code (and vice versa) is refused", async () => {
    const { deps, code, linkToken } = await signedUp();
    expect((await verifyOtp(deps, { type: "signup", token: code, email: "alice@example.com" })).ok).toBe(
      true,
    );
    expect(await verifyOtp(deps, { type: "signup", tokenHash: linkToken })).toEqual(EXPIRED);
    expect(await verifyOtp(deps, { type: "signup", token: code, email: "alice@example.com" })).toEqual(
      EXPIRED,
    );
  });

  it("refuses a wrong code, another address's code or the wrong type without spending the token", async () => {
    const { deps, code, linkToken } = await signedUp();
    const wrong = code === "999999" ? "999998" : "999999";
    expect(await verifyOtp(deps, { type: "signup", token: wrong, email: "alice@example.com" })).toEqual(
      EXPIRED,
    );
    expect(await verifyOtp(deps, { type: "signup", token: code, email: "bob@example.com" })).toEqual(EXPIRED);
    expect(await verifyOtp(deps, { type: "recovery", tokenHash: linkToken })).toEqual(EXPIRED);
    expect(await verifyOtp(deps, { type: "signup", tokenHash: "not-a-token" })).toEqual(EXPIRED);
    expect((await verifyOtp(deps, { type: "email", tokenHash: linkToken })).ok).toBe(true);
  });

  it("honours MAILER_OTP_EXP to the millisecond and spends an expired token", async () => {
    const { deps, code } = await signedUp();
    deps.clock.advance(3_600_000);
    expect((await verifyOtp(deps, { type: "signup", token: code, email: "alice@example.com" })).ok).toBe(
      true,
    );

    const late = await signedUp();
    late.deps.clock.advance(3_600_001);
    expect(await verifyOtp(late.deps, { type: "signup", tokenHash: late.linkToken })).toEqual(EXPIRED);
    expect(late.deps.store.tables.oneTimeTokens.size).toBe(0);
    expect(late.deps.store.tables.users.get(late.user.id)?.emailConfirmedAt).toBeNull();
  });

  it("refuses a banned user with 403 user_banned and issues no session", async () => {
    const { deps, user, linkToken } = await signedUp();
    const until = new Date(deps.clock.now().getTime() + 60_000);
    deps.store.tables.users.set(user.id, { ...user, bannedUntil: until });
    expect(await verifyOtp(deps, { type: "signup", tokenHash: linkToken })).toMatchObject({
      ok: false,
      error: { code: "user_banned" },
    });
    expect(deps.store.tables.sessions.size).toBe(0);
  });

  it("refuses a link whose address is no longer the user's", async () => {
    const { deps, user, linkToken } = await signedUp();
    deps.store.tables.users.set(user.id, { ...user, email: "other@example.com" });
    expect(await verifyOtp(deps, { type: "signup", tokenHash: linkToken })).toEqual(EXPIRED);
    expect(deps.store.tables.users.get(user.id)?.emailConfirmedAt).toBeNull();
  });

  it("answers an allowed redirect_to, else SITE_URL", async () => {
    const settings = { uriAllowList: ["https://app.example.com/**"] };
    const a = await signedUp(settings);
    const allowed = await verifyOtp(a.deps, {
      type: "signup",
      tokenHash: a.linkToken,
      redirectTo: "https://app.example.com/done",
    });
    expect(allowed).toMatchObject({ ok: true, value: { redirectTo: "https://app.example.com/done" } });
    const b = await signedUp(settings);
    const refused = await verifyOtp(b.deps, {
      type: "signup",
      tokenHash: b.linkToken,
      redirectTo: "https://app.example.com@evil.example/",
    });
    expect(refused).toMatchObject({ ok: true, value: { redirectTo: "http://localhost:3000" } });
  });

  it("lets exactly one of two concurrent verifications of one token succeed", async () => {
    const { deps, linkToken } = await signedUp();
    const results = await Promise.all([
      verifyOtp(deps, { type: "signup", tokenHash: linkToken }),
      verifyOtp(deps, { type: "signup", tokenHash: linkToken }),
    ]);
    expect(results.filter((r) => r.ok)).toHaveLength(1);
    expect(results.filter((r) => !r.ok)).toEqual([EXPIRED]);
    expect(deps.store.tables.sessions.size).toBe(1);
  });
});

describe("verifyOtp code guessing", () => {
  const wrong = (code: string) => (code === "999999" ? "999998" : "999999");

  it("a token survives four wrong codes", async () => {
    const { deps, code } = await signedUp();
    for (let i = 0; i < 4; i++) {
      expect(
        await verifyOtp(deps, { type: "signup", email: "alice@example.com", token: wrong(code) }),
      ).toEqual(EXPIRED);
    }
    const result = await verifyOtp(deps, { type: "signup", email: "alice@example.com", token: code });
    expect(result).toMatchObject({ ok: true, value: { kind: "session" } });
  });

  it("the fifth wrong code deletes the token: the right code no longer works", async () => {
    const { deps, code } = await signedUp();
    for (let i = 0; i < 5; i++) {
      await verifyOtp(deps, { type: "signup", email: "alice@example.com", token: wrong(code) });
    }
    expect(deps.store.tables.oneTimeTokens.size).toBe(0);
    expect(await verifyOtp(deps, { type: "signup", email: "alice@example.com", token: code })).toEqual(
      EXPIRED,
    );
  });
});
