import { describe, expect, it } from "vitest";
import { blankUser, type User } from "../accounts/index.js";
import { issueSession } from "../sessions/index.js";
import { fakeDeps } from "../testing/index.js";
import { adminCreateUser } from "./admin-create-user.js";
import { adminUpdateUser } from "./admin-update-user.js";
import type { AdminUserFields } from "./admin-user-fields.js";

const actor = { role: "supabase_admin" };
const HOUR = 3600 * 1000;
const failure = (code: string, message: string) => ({
  ok: false,
  error: { code, message },
});

/** A confirmed email user created through the admin API, and a way to update them. */
async function setUp(
  body: AdminUserFields = { email: "alice@example.com", password: "secret123", emailConfirm: true },
) {
  const deps = fakeDeps();
  const created = await adminCreateUser(deps, { actor, fields: body });
  if (!created.ok) throw created.error;
  const id = created.value.id;
  deps.store.tables.audit.length = 0;
  deps.clock.advance(HOUR);
  const update = (fields: AdminUserFields) => adminUpdateUser(deps, { actor, userId: id, fields });
  const stored = () => deps.store.tables.users.get(id) as User;
  return { deps, id, update, stored };
}

describe("adminUpdateUser", () => {
  it("a password set by an admin ends every session of the user (a reset)", async () => {
    const { deps, id, update, stored } = await setUp();
    await deps.store.transaction((repos) =>
      issueSession(deps, repos, stored(), "password", deps.clock.now()),
    );
    expect(deps.store.tables.sessions.size).toBe(1);
    expect(await update({ password: "another-secret" })).toMatchObject({ ok: true, value: { id } });
    expect(deps.store.tables.sessions.size).toBe(0);
    expect(deps.store.tables.tokens.size).toBe(0);
  });

  it("merges user_metadata and app_metadata, null deleting a key, and records the change", async () => {
    const { deps, id, update, stored } = await setUp({
      email: "alice@example.com",
      userMetadata: { a: 1, b: 2 },
      appMetadata: { plan: "free" },
    });
    const result = await update({ userMetadata: { b: null, c: 3 }, appMetadata: { plan: "pro" } });
    expect(result).toMatchObject({ ok: true, value: { id, userMetadata: { a: 1, c: 3 } } });
    expect(stored().userMetadata).toEqual({ a: 1, c: 3 });
    expect(stored().appMetadata).toEqual({ provider: "email", providers: ["email"], plan: "pro" });
    expect(stored().updatedAt).toEqual(deps.clock.now());
    expect(deps.store.tables.audit).toEqual([
      {
        action: "user_modified",
        actorId: "",
        actorUsername: "supabase_admin",
        traits: { user_id: id, user_email: "alice@example.com", user_phone: "" },
        at: deps.clock.now(),
      },
    ]);
  });

  it("sets the email directly and keeps the email identity's address in step", async () => {
    const { update, stored } = await setUp();
    const result = await update({ email: "Alice.New@Example.com" });
    if (!result.ok) throw result.error;
    expect(stored()).toMatchObject({ email: "alice.new@example.com", emailChange: null });
    expect(result.value.identities).toEqual([
      expect.objectContaining({
        provider: "email",
        identityData: expect.objectContaining({ email: "alice.new@example.com" }),
      }),
    ]);
  });

  it("adds a phone with its identity and provider, and confirms it on phone_confirm", async () => {
    const { deps, update, stored } = await setUp();
    const result = await update({ phone: "+15550100", phoneConfirm: true });
    if (!result.ok) throw result.error;
    expect(stored()).toMatchObject({ phone: "15550100", phoneConfirmedAt: deps.clock.now() });
    expect(stored().appMetadata).toEqual({ provider: "email", providers: ["email", "phone"] });
    expect(result.value.identities.map((i) => i.provider)).toEqual(["email", "phone"]);
    expect(deps.store.tables.identities.size).toBe(2);
  });

  it("confirms an unconfirmed email on email_confirm", async () => {
    const { deps, update, stored } = await setUp({ email: "bob@example.com" });
    const result = await update({ emailConfirm: true });
    expect(stored().emailConfirmedAt).toEqual(deps.clock.now());
    if (!result.ok) throw result.error;
    expect(result.value.identities[0]?.identityData).toMatchObject({ email_verified: true });
  });

  it("changes the password and the role", async () => {
    const { update, stored } = await setUp();
    expect(await update({ password: "another-secret", role: "editor" })).toMatchObject({ ok: true });
    expect(stored()).toMatchObject({ encryptedPassword: "plain$another-secret", role: "editor" });
    expect(await update({ passwordHash: "bcrypt$imported" })).toMatchObject({ ok: true });
    expect(stored().encryptedPassword).toBe("bcrypt$imported");
  });

  it("bans the user and revokes every refresh token they hold, and 'none' unbans", async () => {
    const { deps, id, update, stored } = await setUp();
    const now = deps.clock.now();
    const other = blankUser({
      id: "77777777-7777-4777-8777-777777777777",
      aud: "authenticated",
      role: "authenticated",
      createdAt: now,
    });
    deps.store.tables.users.set(other.id, other);
    await deps.store.transaction(async (repos) => {
      await issueSession(deps, repos, stored(), "password", now);
      await issueSession(deps, repos, stored(), "password", now);
      await issueSession(deps, repos, other, "password", now);
    });
    expect(await update({ banDuration: "1h30m" })).toMatchObject({
      ok: true,
      value: { bannedUntil: new Date(now.getTime() + 1.5 * HOUR) },
    });
    const tokens = [...deps.store.tables.tokens.values()];
    expect(tokens.filter((t) => t.userId === id).map((t) => t.revoked)).toEqual([true, true]);
    expect(tokens.filter((t) => t.userId === other.id).map((t) => t.revoked)).toEqual([false]);

    expect(await update({ banDuration: "none" })).toMatchObject({ ok: true, value: { bannedUntil: null } });
    expect(stored().bannedUntil).toBeNull();
  });

  it("makes an anonymous user permanent when it confirms an email for them", async () => {
    const deps = fakeDeps();
    const anon = blankUser({
      id: "55555555-5555-4555-8555-555555555555",
      aud: "authenticated",
      role: "authenticated",
      createdAt: deps.clock.now(),
      isAnonymous: true,
    });
    deps.store.tables.users.set(anon.id, anon);
    const update = (fields: AdminUserFields) => adminUpdateUser(deps, { actor, userId: anon.id, fields });
    expect(await update({ email: "anon@example.com" })).toMatchObject({
      ok: true,
      value: { isAnonymous: true },
    });
    expect(await update({ emailConfirm: true })).toMatchObject({
      ok: true,
      value: { isAnonymous: false, appMetadata: { provider: "email", providers: ["email"] } },
    });
  });

  it("keeps the user's own email without calling it taken", async () => {
    const { update } = await setUp();
    expect(await update({ email: "ALICE@example.com" })).toMatchObject({
      ok: true,
      value: { email: "alice@example.com" },
    });
  });

  describe("refuses, writing nothing,", () => {
    const cases: [string, AdminUserFields, object][] = [
      [
        "a weak password",
        { password: "123" },
        failure("weak_password", "Password should be at least 6 characters."),
      ],
      [
        "a malformed email",
        { email: "nope" },
        failure("validation_failed", "Unable to validate email address: invalid format"),
      ],
      [
        "a malformed ban_duration",
        { banDuration: "1 day", role: "x" },
        { ok: false, error: { code: "validation_failed" } },
      ],
      [
        "an email of another user",
        { email: "taken@example.com" },
        failure("email_exists", "A user with this email address has already been registered"),
      ],
      [
        "a phone of another user",
        { phone: "15550199" },
        failure("phone_exists", "Phone number already registered by another user"),
      ],
    ];
    for (const [name, input, expected] of cases) {
      it(name, async () => {
        const { deps, update, stored } = await setUp();
        const now = deps.clock.now();
        const taken = blankUser({
          id: "66666666-6666-4666-8666-666666666666",
          aud: "authenticated",
          role: "authenticated",
          createdAt: now,
          email: "taken@example.com",
          phone: "15550199",
        });
        deps.store.tables.users.set(taken.id, taken);
        const before = stored();
        expect(await update(input)).toMatchObject(expected);
        expect(stored()).toEqual(before);
        expect(deps.store.tables.audit).toEqual([]);
      });
    }
  });

  it("answers 404 for an unknown user and for an id that is not a UUID", async () => {
    const { deps } = await setUp();
    const missing = await adminUpdateUser(deps, {
      actor,
      userId: "12345678-1234-4234-8234-123456789012",
      fields: { role: "x" },
    });
    expect(missing).toMatchObject(failure("user_not_found", "User not found"));
    const malformed = await adminUpdateUser(deps, { actor, userId: "nope", fields: {} });
    expect(malformed).toMatchObject(failure("validation_failed", "user_id must be an UUID"));
  });
});
