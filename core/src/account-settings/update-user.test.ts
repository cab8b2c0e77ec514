import { describe, expect, it } from "vitest";
import { blankUser, type Identity, type User } from "../accounts/index.js";
import { failures } from "../failures.js";
import { issueSession } from "../sessions/index.js";
import type { AuthSettings } from "../settings.js";
import { fakeDeps } from "../testing/index.js";
import { rollingBack } from "../testing/rolling-back-store.js";
import { type UpdateUserInput, updateUser } from "./update-user.js";

const ID = "11111111-1111-4111-8111-111111111111";
const OTHER = "22222222-2222-4222-8222-222222222222";
const HOUR = 3600 * 1000;
const failure = (code: string, message: string) => ({
  ok: false,
  error: { code, message },
});
const autoconfirm = (mailer: boolean, sms: boolean): Partial<AuthSettings> => ({
  signup: {
    disabled: false,
    emailEnabled: true,
    phoneEnabled: true,
    anonymousEnabled: true,
    mailerAutoconfirm: mailer,
    smsAutoconfirm: sms,
    hideExisting: false,
  },
});

/**
 * Alice (confirmed email, password "secret123", an email identity, two sessions) and Bob
 * (bob@example.com, phone 15550199), an hour after Alice was created.
 */
async function setUp(settings: Partial<AuthSettings> = {}, alice: Partial<User> = {}) {
  const deps = fakeDeps(settings);
  const created = deps.clock.now();
  const user = blankUser({
    id: ID,
    aud: "authenticated",
    role: "authenticated",
    createdAt: created,
    email: "alice@example.com",
    emailConfirmedAt: created,
    encryptedPassword: "plain$secret123",
    appMetadata: { provider: "email", providers: ["email"] },
    ...alice,
  });
  deps.store.tables.users.set(ID, user);
  if (user.email) {
    const identity: Identity = {
      id: "e0000000-0000-4000-8000-000000000000",
      providerId: ID,
      userId: ID,
      provider: "email",
      identityData: { sub: ID, email: user.email, email_verified: true, phone_verified: false },
      lastSignInAt: null,
      createdAt: created,
      updatedAt: created,
    };
    deps.store.tables.identities.set(identity.id, identity);
  }
  const bob = blankUser({
    id: OTHER,
    aud: "authenticated",
    role: "authenticated",
    createdAt: created,
    email: "bob@example.com",
    phone: "15550199",
  });
  deps.store.tables.users.set(OTHER, bob);
  const sessions = await deps.store.transaction(async (repos) => [
    (await issueSession(deps, repos, user, "password", created)).session.id,
    (await issueSession(deps, repos, user, "password", created)).session.id,
  ]);
  deps.clock.advance(HOUR);
  const update = (
    input: Omit<UpdateUserInput, "userId" | "sessionId">,
    sessionId: string | null = sessions[0] ?? null,
  ) => updateUser(deps, { userId: ID, sessionId, ...input });
  const stored = () => deps.store.tables.users.get(ID) as User;
  return { deps, sessions, update, stored, created };
}

describe("updateUser", () => {
  it("merges data into user_metadata, null deleting a key, and records the change", async () => {
    const { deps, update, stored } = await setUp({}, { userMetadata: { a: 1, b: 2 } });
    const result = await update({ data: { b: null, c: "x" } });
    expect(result).toMatchObject({ ok: true, value: { userMetadata: { a: 1, c: "x" } } });
    if (result.ok) expect(result.value.identities.map((i) => i.provider)).toEqual(["email"]);
    expect(stored()).toMatchObject({ userMetadata: { a: 1, c: "x" }, updatedAt: deps.clock.now() });
    expect(deps.store.tables.audit).toEqual([
      { action: "user_modified", actorId: ID, actorUsername: "alice@example.com", at: deps.clock.now() },
    ]);
  });

  it("changes nothing and records nothing for an empty update", async () => {
    const { deps, update, stored, created } = await setUp();
    expect(await update({ email: "ALICE@example.com" })).toMatchObject({
      ok: true,
      value: { email: "alice@example.com" },
    });
    expect(stored().updatedAt).toEqual(created);
    expect(deps.store.tables.audit).toEqual([]);
    expect(deps.mailer.sent).toEqual([]);
  });

  it("answers 404 when the user is gone", async () => {
    const { deps } = await setUp();
    const result = await updateUser(deps, {
      userId: "33333333-3333-4333-8333-333333333333",
      sessionId: null,
      data: {},
    });
    expect(result).toMatchObject(failure("user_not_found", "User not found"));
  });

  describe("email", () => {
    it("records a pending change and mails the new address", async () => {
      const { deps, update, stored } = await setUp();
      const result = await update({ email: "Alice.New@Example.com" });
      expect(result).toMatchObject({
        ok: true,
        value: { email: "alice@example.com", emailChange: "alice.new@example.com" },
      });
      expect(stored()).toMatchObject({
        emailChange: "alice.new@example.com",
        emailChangeSentAt: deps.clock.now(),
      });
      // Secure change: the new address and the current one each get their own link and code.
      expect(deps.mailer.sent.map((m) => [m.kind, m.to, m.email, m.newEmail])).toEqual([
        ["email_change", "alice.new@example.com", "alice@example.com", "alice.new@example.com"],
        ["email_change", "alice@example.com", "alice@example.com", "alice.new@example.com"],
      ]);
      expect([...deps.store.tables.oneTimeTokens.values()].map((t) => [t.type, t.relatesTo])).toEqual([
        ["email_change_token_new", "alice.new@example.com"],
        ["email_change_token_current", "alice@example.com"],
      ]);
    });

    it("links the change mails to an allowed redirect_to, else to SITE_URL", async () => {
      const { deps, update } = await setUp({ uriAllowList: ["https://app.example.com/**"] });
      await update({ email: "alice.new@example.com", redirectTo: "https://app.example.com/welcome" });
      expect(deps.mailer.sent[0]?.confirmationUrl).toContain("redirect_to=https://app.example.com/welcome");
      const other = await setUp();
      await other.update({ email: "alice.new@example.com", redirectTo: "https://evil.example.net/" });
      expect(other.deps.mailer.sent[0]?.confirmationUrl).toContain("redirect_to=http://localhost:3000");
    });

    it("refuses a second change within SMTP_MAX_FREQUENCY, keeping the first one pending", async () => {
      const { deps, update, stored } = await setUp();
      await update({ email: "alice.new@example.com" });
      deps.clock.advance(899_500);
      expect(await update({ email: "alice.other@example.com" })).toMatchObject(
        failure(
          "over_email_send_rate_limit",
          "For security purposes, you can only request this after 1 seconds.",
        ),
      );
      expect(stored().emailChange).toBe("alice.new@example.com");
      expect(deps.mailer.sent).toHaveLength(2);
    });

    it("applies the change at once under mailer autoconfirm", async () => {
      const { deps, update, stored } = await setUp(autoconfirm(true, false));
      const result = await update({ email: "alice.new@example.com" });
      expect(stored()).toMatchObject({
        email: "alice.new@example.com",
        emailConfirmedAt: deps.clock.now(),
        emailChange: null,
      });
      if (!result.ok) throw result.error;
      expect(result.value.identities.map((i) => i.identityData.email)).toEqual(["alice.new@example.com"]);
      expect([...deps.store.tables.identities.values()][0]?.identityData.email).toBe("alice.new@example.com");
      expect(deps.mailer.sent).toEqual([]);
    });

    it("refuses an address another user has, writing nothing", async () => {
      const { deps, update, stored } = await setUp();
      const before = stored();
      expect(await update({ email: "Bob@example.com", data: { x: 1 } })).toMatchObject(
        failure("email_exists", "A user with this email address has already been registered"),
      );
      expect(stored()).toEqual(before);
      expect(deps.mailer.sent).toEqual([]);
    });

    it("refuses a malformed address", async () => {
      const { update } = await setUp();
      expect(await update({ email: "not-an-email" })).toMatchObject(
        failure("validation_failed", "Unable to validate email address: invalid format"),
      );
    });

    it("fails when the change-of-email mail cannot be sent", async () => {
      const { deps, update } = await setUp();
      deps.mailer.send = async () => {
        throw new Error("smtp down");
      };
      await expect(update({ email: "alice.new@example.com" })).rejects.toThrow("smtp down");
    });
  });

  describe("phone", () => {
    it("records a pending change and texts a code to the new number without autoconfirm", async () => {
      const { deps, update, stored } = await setUp();
      expect(await update({ phone: "+1 555 0100" })).toMatchObject({ ok: true, value: { phone: null } });
      expect(stored()).toMatchObject({ phoneChange: "15550100", phoneChangeSentAt: deps.clock.now() });
      expect(deps.sms.sent).toEqual([{ to: "15550100", body: "Your code is 000001" }]);
    });

    it("undoes the whole update when the code cannot be texted", async () => {
      const { deps, update, stored } = await setUp();
      rollingBack(deps.store);
      const before = stored();
      deps.sms.fail = failures.smsSendFailed();
      expect(await update({ phone: "+15550100", data: { x: 1 } })).toMatchObject(
        failure("sms_send_failed", "Error sending SMS"),
      );
      expect(stored()).toEqual(before);
      expect(deps.store.tables.oneTimeTokens.size).toBe(0);
      // The text is sent once the update has committed: the audit keeps the attempt.
      expect(deps.store.tables.audit.map((e) => e.action)).toEqual(["user_modified"]);
    });

    it("applies the change with a phone identity under SMS autoconfirm", async () => {
      const { deps, update, stored } = await setUp(autoconfirm(false, true));
      const result = await update({ phone: "+15550100" });
      expect(stored()).toMatchObject({
        phone: "15550100",
        phoneConfirmedAt: deps.clock.now(),
        appMetadata: { provider: "email", providers: ["email", "phone"] },
      });
      if (result.ok) expect(result.value.identities.map((i) => i.provider)).toEqual(["email", "phone"]);
    });

    it("refuses a phone another user has", async () => {
      const { update } = await setUp(autoconfirm(false, true));
      expect(await update({ phone: "+15550199" })).toMatchObject(
        failure("phone_exists", "Phone number already registered by another user"),
      );
    });

    it("refuses a malformed phone", async () => {
      const { update } = await setUp();
      expect(await update({ phone: "555-invalid" })).toMatchObject(
        failure("validation_failed", "Invalid phone number format (E.164 required)"),
      );
    });
  });

  describe("password", () => {
    it("stores the new hash, ends the user's other sessions and records both entries", async () => {
      const { deps, sessions, update, stored } = await setUp();
      expect(await update({ password: "new-secret" })).toMatchObject({ ok: true });
      expect(stored().encryptedPassword).toBe("plain$new-secret");
      expect([...deps.store.tables.sessions.keys()]).toEqual([sessions[0]]);
      expect(deps.store.tables.audit.map((e) => e.action)).toEqual([
        "user_updated_password",
        "user_modified",
      ]);
    });

    it("ends every session of the user when the token has none", async () => {
      const { deps, update } = await setUp();
      expect(await update({ password: "new-secret" }, null)).toMatchObject({ ok: true });
      expect(deps.store.tables.sessions.size).toBe(0);
    });

    it("refuses a weak password", async () => {
      const { update, stored } = await setUp();
      expect(await update({ password: "123" })).toMatchObject(
        failure("weak_password", "Password should be at least 6 characters."),
      );
      expect(stored().encryptedPassword).toBe("plain$secret123");
    });

    it("refuses the current password", async () => {
      const { deps, update } = await setUp();
      expect(await update({ password: "secret123" })).toMatchObject(
        failure("same_password", "New password should be different from the old password."),
      );
      expect(deps.store.tables.sessions.size).toBe(2);
    });
  });

  describe("anonymous users", () => {
    const anonymous = {
      email: null,
      emailConfirmedAt: null,
      encryptedPassword: null,
      isAnonymous: true,
      appMetadata: {},
    };
    const refusal = failure(
      "validation_failed",
      "Updating password of an anonymous user without an email or phone is not allowed",
    );

    it("may not set a password without an email or phone", async () => {
      const { update } = await setUp({}, anonymous);
      expect(await update({ password: "new-secret" })).toMatchObject(refusal);
    });

    it("may not set a password with an email that is only pending", async () => {
      const { update, stored } = await setUp({}, anonymous);
      expect(await update({ email: "anon@example.com", password: "new-secret" })).toMatchObject(refusal);
      expect(stored().emailChange).toBeNull();
    });

    it("become permanent by adding an autoconfirmed email and a password", async () => {
      const { deps, update, stored } = await setUp(autoconfirm(true, false), anonymous);
      const result = await update({ email: "anon@example.com", password: "new-secret" });
      expect(result).toMatchObject({ ok: true, value: { isAnonymous: false, email: "anon@example.com" } });
      expect(stored()).toMatchObject({
        isAnonymous: false,
        encryptedPassword: "plain$new-secret",
        emailConfirmedAt: deps.clock.now(),
        appMetadata: { provider: "email", providers: ["email"] },
      });
      if (result.ok) {
        expect(result.value.identities).toEqual([
          expect.objectContaining({
            provider: "email",
            identityData: expect.objectContaining({ email: "anon@example.com", email_verified: true }),
          }),
        ]);
      }
    });
  });

  describe("reauthentication", () => {
    const required = { updatePasswordRequiresReauthentication: true };
    /** Alice with nonce "123456" sent just now (the fake hash of a token is `h(<token>)`). */
    const withNonce = async () => {
      const setup = await setUp(required);
      const sent = setup.deps.clock.now();
      setup.deps.store.tables.users.set(ID, {
        ...setup.stored(),
        reauthenticationToken: "h(123456)",
        reauthenticationSentAt: sent,
      });
      return setup;
    };
    const invalid = failure(
      "reauthentication_not_valid",
      "Reauthentication failed: nonce is invalid or has expired",
    );

    it("needs a nonce", async () => {
      const { update } = await withNonce();
      expect(await update({ password: "new-secret" })).toMatchObject(
        failure("reauthentication_needed", "Password update requires reauthentication"),
      );
    });

    it("accepts the nonce once, within the hour", async () => {
      const { deps, update, stored } = await withNonce();
      deps.clock.advance(HOUR);
      expect(await update({ password: "new-secret", nonce: "123456" })).toMatchObject({ ok: true });
      expect(stored()).toMatchObject({ encryptedPassword: "plain$new-secret", reauthenticationToken: null });
      expect(await update({ password: "newer-secret", nonce: "123456" })).toMatchObject(invalid);
    });

    it("refuses a wrong nonce", async () => {
      const { update, stored } = await withNonce();
      expect(await update({ password: "new-secret", nonce: "654321" })).toMatchObject(invalid);
      expect(stored().reauthenticationToken).toBe("h(123456)");
    });

    it("refuses an expired nonce", async () => {
      const { deps, update } = await withNonce();
      deps.clock.advance(HOUR + 1);
      expect(await update({ password: "new-secret", nonce: "123456" })).toMatchObject(invalid);
    });

    it("refuses a nonce when none was sent", async () => {
      const { update } = await setUp(required);
      expect(await update({ password: "new-secret", nonce: "123456" })).toMatchObject(invalid);
    });
  });
});
