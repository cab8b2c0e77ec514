import { describe, expect, it } from "vitest";
import { blankUser, type User } from "../accounts/index.js";
import { fakeDeps } from "../testing/index.js";
import { signInWithPassword } from "./sign-in-password.js";

const USER_ID = "11111111-1111-4111-8111-111111111111";
const invalidCredentials = {
  ok: false,
  error: { code: "invalid_credentials", message: "Invalid login credentials" },
};

/** A confirmed user with email, phone and the password "secret1" (fake-hasher form). */
function withUser(fields: Partial<User> = {}, settings: Parameters<typeof fakeDeps>[0] = {}) {
  const deps = fakeDeps(settings);
  const now = deps.clock.now();
  const user = blankUser({
    id: USER_ID,
    aud: "authenticated",
    role: "authenticated",
    createdAt: new Date(now.getTime() - 86_400_000),
    email: "alice@example.com",
    phone: "15551234567",
    encryptedPassword: "plain$secret1",
    emailConfirmedAt: now,
    phoneConfirmedAt: now,
    ...fields,
  });
  deps.store.tables.users.set(user.id, user);
  const stored = () => deps.store.tables.users.get(USER_ID);
  return { deps, user, stored };
}

describe("signInWithPassword", () => {
  it("signs in by email (any case): a new session with amr password, last sign-in and a login audit", async () => {
    const { deps, stored } = withUser();
    const result = await signInWithPassword(deps, { email: " Alice@Example.COM", password: "secret1" });
    if (!result.ok) throw result.error;
    const { session, refreshToken, accessToken, user } = result.value;
    expect(user.id).toBe(USER_ID);
    expect(deps.store.tables.sessions.get(session.id)).toBeDefined();
    expect(await deps.store.sessions.findTokenByHash(deps.tokens.hash(refreshToken))).toMatchObject({
      sessionId: session.id,
      revoked: false,
    });
    const now = deps.clock.now();
    expect(await deps.signer.verify(accessToken)).toMatchObject({
      sub: USER_ID,
      session_id: session.id,
      amr: [{ method: "password", timestamp: now.getTime() / 1000 }],
    });
    expect(stored()?.lastSignInAt).toEqual(now);
    expect(deps.store.tables.audit).toEqual([
      {
        action: "login",
        actorId: USER_ID,
        actorUsername: "15551234567",
        traits: { provider: "email" },
        at: now,
      },
    ]);
  });

  it("signs in by phone", async () => {
    const { deps } = withUser();
    const result = await signInWithPassword(deps, { phone: "+15551234567", password: "secret1" });
    expect(result).toMatchObject({ ok: true, value: { user: { id: USER_ID } } });
    expect(deps.store.tables.audit[0]?.traits).toEqual({ provider: "phone" });
  });

  it("starts one session per sign-in", async () => {
    const { deps } = withUser();
    await signInWithPassword(deps, { email: "alice@example.com", password: "secret1" });
    await signInWithPassword(deps, { email: "alice@example.com", password: "secret1" });
    expect(deps.store.tables.sessions.size).toBe(2);
  });

  it("upgrades an imported hash after a successful sign-in and keeps a current one", async () => {
    const imported = withUser({ encryptedPassword: "bcrypt$secret1" });
    await signInWithPassword(imported.deps, { email: "alice@example.com", password: "secret1" });
    expect(imported.stored()?.encryptedPassword).toBe("plain$secret1");
    const current = withUser();
    await signInWithPassword(current.deps, { email: "alice@example.com", password: "secret1" });
    expect(current.stored()?.encryptedPassword).toBe("plain$secret1");
  });

  it("answers a wrong password with invalid_credentials and writes nothing", async () => {
    const { deps, user, stored } = withUser();
    expect(await signInWithPassword(deps, { email: "alice@example.com", password: "nope" })).toMatchObject(
      invalidCredentials,
    );
    expect(stored()).toEqual(user);
    expect(deps.store.tables.sessions.size).toBe(0);
    expect(deps.store.tables.audit).toEqual([]);
    expect(deps.hasher.dummyCalls).toBe(0);
  });

  it.each([
    ["an unknown email", { email: "bob@example.com" }],
    ["an invalid email", { email: "not an email" }],
    ["an unknown phone", { phone: "+15550000000" }],
    ["an invalid phone", { phone: "12ab" }],
  ])("answers %s like a wrong password, after a dummy verification", async (_, address) => {
    const { deps } = withUser();
    expect(await signInWithPassword(deps, { ...address, password: "secret1" })).toMatchObject(
      invalidCredentials,
    );
    expect(deps.hasher.dummyCalls).toBe(1);
  });

  it("answers a user without a password like a wrong password", async () => {
    const { deps } = withUser({ encryptedPassword: null });
    expect(await signInWithPassword(deps, { email: "alice@example.com", password: "" })).toMatchObject(
      invalidCredentials,
    );
    expect(deps.hasher.dummyCalls).toBe(1);
  });

  it("tells a banned user so only when the password is right", async () => {
    const { deps } = withUser({ bannedUntil: new Date("2026-01-02T00:00:00Z") });
    expect(await signInWithPassword(deps, { email: "alice@example.com", password: "nope" })).toMatchObject(
      invalidCredentials,
    );
    expect(await signInWithPassword(deps, { email: "alice@example.com", password: "secret1" })).toMatchObject(
      {
        ok: false,
        error: { failure: "userBannedAtTokenGrant", code: "user_banned", message: "User is banned" },
      },
    );
    deps.clock.set(new Date("2026-01-02T00:00:00Z"));
    expect((await signInWithPassword(deps, { email: "alice@example.com", password: "secret1" })).ok).toBe(
      true,
    );
  });

  it("refuses an unconfirmed email or phone for that channel only", async () => {
    const emailOnly = withUser({ phoneConfirmedAt: null });
    expect(
      await signInWithPassword(emailOnly.deps, { phone: "+15551234567", password: "secret1" }),
    ).toMatchObject({
      ok: false,
      error: { code: "phone_not_confirmed", message: "Phone not confirmed" },
    });
    expect(
      (await signInWithPassword(emailOnly.deps, { email: "alice@example.com", password: "secret1" })).ok,
    ).toBe(true);
    const phoneOnly = withUser({ emailConfirmedAt: null });
    expect(
      await signInWithPassword(phoneOnly.deps, { email: "alice@example.com", password: "secret1" }),
    ).toMatchObject({
      ok: false,
      error: { code: "email_not_confirmed", message: "Email not confirmed" },
    });
    expect(phoneOnly.deps.store.tables.sessions.size).toBe(0);
  });

  it("requires exactly one of email and phone", async () => {
    const { deps } = withUser();
    expect(await signInWithPassword(deps, { password: "secret1" })).toMatchObject({
      ok: false,
      error: { code: "validation_failed", message: "Missing email or phone" },
    });
    expect(
      await signInWithPassword(deps, {
        email: "alice@example.com",
        phone: "15551234567",
        password: "secret1",
      }),
    ).toMatchObject({ ok: false, error: { code: "validation_failed" } });
  });

  it("refuses logins of a disabled provider with 422", async () => {
    const signup = {
      disabled: false,
      emailEnabled: false,
      phoneEnabled: false,
      anonymousEnabled: false,
      mailerAutoconfirm: false,
      smsAutoconfirm: false,
      hideExisting: false,
    };
    const { deps } = withUser({}, { signup });
    expect(await signInWithPassword(deps, { email: "alice@example.com", password: "secret1" })).toMatchObject(
      {
        ok: false,
        error: {
          failure: "emailPasswordLoginsDisabled",
          code: "email_provider_disabled",
          message: "Email logins are disabled",
        },
      },
    );
    expect(await signInWithPassword(deps, { phone: "15551234567", password: "secret1" })).toMatchObject({
      ok: false,
      error: {
        failure: "phonePasswordLoginsDisabled",
        code: "phone_provider_disabled",
        message: "Phone logins are disabled",
      },
    });
  });
});
