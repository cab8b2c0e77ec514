import { describe, expect, it } from "vitest";
import type { fakeStore } from "../testing/index.js";
import { setUpSignUp } from "../testing/signup/sign-up-fixtures.js";
import type { SignupStore } from "./deps.js";
import { signUp } from "./sign-up.js";

const setUp = setUpSignUp;

/** A store whose transactions roll the tables back when the callback throws, like Postgres. */
function rollingBack(store: ReturnType<typeof fakeStore>): SignupStore {
  return {
    ...store,
    transaction: async (fn) => {
      const t = store.tables;
      const saved = { ...t, users: new Map(t.users), identities: new Map(t.identities), audit: [...t.audit] };
      try {
        return await store.transaction(fn);
      } catch (error) {
        Object.assign(t, saved);
        throw error;
      }
    },
  };
}

const userOf = (result: Awaited<ReturnType<typeof signUp>>) => {
  if (!result.ok) throw result.error;
  if (result.value.kind !== "user") throw new Error("expected a user");
  return result.value.user;
};
const tokensOf = (result: Awaited<ReturnType<typeof signUp>>) => {
  if (!result.ok) throw result.error;
  if (result.value.kind !== "session") throw new Error("expected a session");
  return result.value.tokens;
};

describe("signUp with email", () => {
  it("creates an unconfirmed user, sends the confirmation mail and answers the user", async () => {
    const deps = setUp();
    const now = deps.clock.now();
    const user = userOf(
      await signUp(deps, { email: "Alice@Example.com", password: "secret1", data: { name: "Alice" } }),
    );
    expect(user).toMatchObject({
      email: "alice@example.com",
      phone: null,
      role: "authenticated",
      aud: "authenticated",
      encryptedPassword: "plain$secret1",
      userMetadata: { name: "Alice" },
      appMetadata: { provider: "email", providers: ["email"] },
      emailConfirmedAt: null,
      confirmationSentAt: now,
      lastSignInAt: null,
      isAnonymous: false,
      createdAt: now,
    });
    expect(Object.keys(user.userMetadata)).toEqual(["name"]);
    const { identities, ...stored } = user;
    expect(deps.tables.users.get(user.id)).toEqual(stored);
    // The answer shows the identity that was stored.
    expect(identities).toEqual([...deps.tables.identities.values()]);
    expect([...deps.tables.identities.values()]).toEqual([
      {
        id: expect.any(String),
        providerId: user.id,
        userId: user.id,
        provider: "email",
        identityData: {
          sub: user.id,
          email: "alice@example.com",
          email_verified: false,
          phone_verified: false,
        },
        lastSignInAt: null,
        createdAt: now,
        updatedAt: now,
      },
    ]);
    // The mail carries a link to /verify and a code; only their hashes are stored.
    expect(deps.mailer.sent).toEqual([
      {
        kind: "confirmation",
        to: "alice@example.com",
        email: "alice@example.com",
        confirmationUrl:
          "http://localhost:9999/verify?token=rt1&type=signup&redirect_to=http://localhost:3000",
        token: "000001",
      },
    ]);
    expect([...deps.tables.oneTimeTokens.values()]).toEqual([
      {
        id: expect.any(String),
        userId: user.id,
        type: "confirmation_token",
        tokenHash: "h(rt1)",
        otpHash: "h(alice@example.com000001)",
        relatesTo: "alice@example.com",
        createdAt: now,
      },
    ]);
    expect(deps.tables.audit.map((e) => [e.action, e.actorId, e.actorUsername])).toEqual([
      ["user_confirmation_requested", user.id, "alice@example.com"],
    ]);
    expect(deps.tables.sessions.size).toBe(0);
  });

  it("with mailer autoconfirm, confirms the user and answers a session", async () => {
    const deps = setUp({ mailerAutoconfirm: true });
    const now = deps.clock.now();
    const tokens = tokensOf(await signUp(deps, { email: "alice@example.com", password: "secret1" }));
    expect(tokens.user).toMatchObject({ emailConfirmedAt: now, lastSignInAt: now, confirmationSentAt: null });
    expect(tokens.user.userMetadata).toEqual({});
    expect(await deps.signer.verify(tokens.accessToken)).toMatchObject({
      sub: tokens.user.id,
      email: "alice@example.com",
      amr: [{ method: "password", timestamp: now.getTime() / 1000 }],
    });
    expect(deps.tables.sessions.has(tokens.session.id)).toBe(true);
    expect(deps.mailer.sent).toEqual([]);
    expect(deps.tables.audit.map((e) => e.action)).toEqual(["user_signedup", "login"]);
  });

  it("leaves no user behind when the confirmation mail cannot be sent", async () => {
    const deps = setUp();
    const failing = {
      ...deps,
      store: rollingBack(deps.store),
      mailer: { send: async () => Promise.reject(new Error("smtp down")) },
    };
    // The mail goes after the answer; its fault is the delivery queue's to report.
    userOf(await signUp(failing, { email: "alice@example.com", password: "secret1" }));
    await deps.deliveries.idle();
    expect(deps.deliveries.faults).toMatchObject([{ message: "smtp down" }]);
    expect(deps.tables.users.size).toBe(0);
    expect(deps.tables.identities.size).toBe(0);
    // The address is free again: a later attempt creates the account.
    userOf(await signUp(deps, { email: "alice@example.com", password: "secret1" }));
    expect(deps.tables.users.size).toBe(1);
  });
});

describe("signUp with phone", () => {
  it("creates an unconfirmed user with the digits of the number and texts it a code", async () => {
    const deps = setUp();
    const user = userOf(await signUp(deps, { phone: "+1 555 123 4567", password: "secret1" }));
    expect(user).toMatchObject({
      phone: "15551234567",
      email: null,
      appMetadata: { provider: "phone", providers: ["phone"] },
      confirmationSentAt: deps.clock.now(),
      phoneConfirmedAt: null,
    });
    expect([...deps.tables.identities.values()][0]).toMatchObject({
      provider: "phone",
      identityData: { sub: user.id, phone: "15551234567", phone_verified: false },
    });
    expect(deps.mailer.sent).toEqual([]);
    expect(deps.sms.sent).toEqual([{ to: "15551234567", body: "Your code is 000001" }]);
    expect([...deps.tables.oneTimeTokens.values()]).toMatchObject([
      {
        userId: user.id,
        type: "confirmation_token",
        relatesTo: "15551234567",
        otpHash: "h(15551234567000001)",
      },
    ]);
    expect(deps.tables.audit[0]).toMatchObject({
      action: "user_confirmation_requested",
      actorUsername: "15551234567",
    });
  });

  it("with SMS autoconfirm answers a session for a confirmed phone", async () => {
    const deps = setUp({ smsAutoconfirm: true, mailerAutoconfirm: false });
    const tokens = tokensOf(await signUp(deps, { phone: "15551234567", password: "secret1" }));
    expect(tokens.user.phoneConfirmedAt).toEqual(deps.clock.now());
    expect(tokens.user.emailConfirmedAt).toBeNull();
  });
});

describe("signUp refusals", () => {
  it.each([
    [
      { disabled: true },
      { email: "a@example.com" },
      "signup_disabled",
      "Signups not allowed for this instance",
    ],
    [
      { emailEnabled: false },
      { email: "a@example.com" },
      "email_provider_disabled",
      "Email signups are disabled",
    ],
    [
      { phoneEnabled: false },
      { phone: "15551234567" },
      "phone_provider_disabled",
      "Phone signups are disabled",
    ],
  ])("with settings %j refuses %j with %s", async (settings, address, code, message) => {
    const deps = setUp(settings);
    const result = await signUp(deps, { ...address, password: "secret1" });
    expect(result).toMatchObject({ ok: false, error: { code, message } });
    expect(deps.tables.users.size).toBe(0);
  });

  it("refuses both an email and a phone", async () => {
    const deps = setUp();
    const result = await signUp(deps, { email: "a@example.com", phone: "15551234567", password: "secret1" });
    expect(result).toMatchObject({
      ok: false,
      error: {
        code: "validation_failed",
        message: "Only an email address or phone number should be provided on signup.",
      },
    });
  });

  it("requires a password", async () => {
    const deps = setUp();
    for (const password of [undefined, ""]) {
      expect(
        await signUp(deps, { email: "a@example.com", ...(password === undefined ? {} : { password }) }),
      ).toMatchObject({
        ok: false,
        error: { code: "validation_failed", message: "Signup requires a valid password" },
      });
    }
  });

  it("refuses an invalid address or a weak password before hashing or storing anything", async () => {
    const deps = setUp();
    expect(await signUp(deps, { email: "not-an-email", password: "secret1" })).toMatchObject({
      ok: false,
      error: {
        code: "validation_failed",
        message: "Unable to validate email address: invalid format",
      },
    });
    expect(await signUp(deps, { phone: "abc", password: "secret1" })).toMatchObject({
      ok: false,
      error: { code: "validation_failed" },
    });
    expect(await signUp(deps, { email: "a@example.com", password: "123" })).toMatchObject({
      ok: false,
      error: { code: "weak_password", details: { weak_password: { reasons: ["length"] } } },
    });
    expect(deps.hashed).toEqual([]);
    expect(deps.tables.users.size).toBe(0);
    expect(deps.tables.audit).toEqual([]);
  });
});

describe("anonymous signUp", () => {
  it("creates an anonymous user with the data as metadata and answers a session", async () => {
    const deps = setUp();
    const now = deps.clock.now();
    const result: Awaited<ReturnType<typeof signUp>> = await signUp(deps, { data: { theme: "dark" } });
    const tokens = tokensOf(result);
    expect(tokens.user).toMatchObject({
      isAnonymous: true,
      role: "authenticated",
      aud: "authenticated",
      email: null,
      phone: null,
      encryptedPassword: null,
      userMetadata: { theme: "dark" },
      appMetadata: {},
    });
    const { identities, factors, ...stored } = tokens.user;
    expect(deps.tables.users.get(tokens.user.id)).toEqual(stored);
    expect(identities).toEqual([]);
    expect(factors).toEqual([]);
    expect(deps.tables.identities.size).toBe(0);
    expect(await deps.signer.verify(tokens.accessToken)).toMatchObject({
      is_anonymous: true,
      amr: [{ method: "anonymous", timestamp: now.getTime() / 1000 }],
    });
    expect(deps.tables.audit.map((e) => [e.action, e.actorId, e.actorUsername])).toEqual([
      ["user_signedup", tokens.user.id, ""],
    ]);
  });

  it("is refused when anonymous sign-ins or sign-ups are disabled", async () => {
    const off = setUp({ anonymousEnabled: false });
    expect(await signUp(off, {})).toMatchObject({
      ok: false,
      error: { code: "anonymous_provider_disabled", message: "Anonymous sign-ins are disabled" },
    });
    const closed = setUp({ disabled: true });
    expect(await signUp(closed, {})).toMatchObject({
      ok: false,
      error: { code: "signup_disabled", message: "Signups not allowed for this instance" },
    });
    expect(off.tables.users.size + closed.tables.users.size).toBe(0);
  });
});
