import { describe, expect, it } from "vitest";
import { blankUser } from "../accounts/index.js";
import { fakeDeps } from "../testing/index.js";
import { adminCreateUser } from "./admin-create-user.js";
import type { AdminUserFields } from "./admin-user-fields.js";

const actor = { role: "service_role" };
const create = (deps: ReturnType<typeof fakeDeps>, fields: AdminUserFields) =>
  adminCreateUser(deps, { actor, fields });
const failure = (code: string, message: string) => ({
  ok: false,
  error: { code, message },
});

/** A deps whose store already holds a user with this email and phone. */
function withExisting(email: string, phone: string) {
  const deps = fakeDeps();
  const id = "99999999-9999-4999-8999-999999999999";
  const user = blankUser({
    id,
    aud: "authenticated",
    role: "authenticated",
    createdAt: deps.clock.now(),
    email,
    phone,
  });
  deps.store.tables.users.set(id, user);
  return deps;
}

describe("adminCreateUser", () => {
  it("creates an unconfirmed email user with a hashed password, an identity and an audit entry", async () => {
    const deps = fakeDeps();
    const now = deps.clock.now();
    const result = await create(deps, { email: "New@Example.com", password: "secret123" });
    if (!result.ok) throw result.error;
    const user = result.value;
    expect(user).toMatchObject({
      email: "new@example.com",
      phone: null,
      aud: "authenticated",
      role: "authenticated",
      emailConfirmedAt: null,
      encryptedPassword: "plain$secret123",
      userMetadata: {},
      appMetadata: { provider: "email", providers: ["email"] },
      isAnonymous: false,
      createdAt: now,
    });
    expect(user.identities).toEqual([
      expect.objectContaining({
        provider: "email",
        providerId: user.id,
        userId: user.id,
        identityData: {
          sub: user.id,
          email: "new@example.com",
          email_verified: false,
          phone_verified: false,
        },
      }),
    ]);
    expect(deps.store.tables.users.get(user.id)).toEqual(
      expect.objectContaining({ email: "new@example.com" }),
    );
    expect([...deps.store.tables.identities.values()]).toEqual(user.identities);
    expect(deps.store.tables.audit).toEqual([
      {
        action: "user_signedup",
        actorId: "",
        actorUsername: "service_role",
        traits: { user_id: user.id, user_email: "new@example.com", user_phone: "" },
        at: now,
      },
    ]);
  });

  it("stores user_metadata exactly as given and merges app_metadata over the computed providers", async () => {
    const deps = fakeDeps();
    const result = await create(deps, {
      email: "a@example.com",
      userMetadata: { favorite_color: "yellow", nested: { a: 1 } },
      appMetadata: { plan: "pro", provider: "custom" },
    });
    expect(result).toMatchObject({
      ok: true,
      value: {
        userMetadata: { favorite_color: "yellow", nested: { a: 1 } },
        appMetadata: { plan: "pro", provider: "custom", providers: ["email"] },
      },
    });
    if (result.ok) expect(result.value.userMetadata).toEqual({ favorite_color: "yellow", nested: { a: 1 } });
  });

  it("confirms the channels asked for and lists email before phone", async () => {
    const deps = fakeDeps();
    const now = deps.clock.now();
    const result = await create(deps, {
      phone: "+1 555 0100",
      email: "b@example.com",
      emailConfirm: true,
      phoneConfirm: true,
    });
    if (!result.ok) throw result.error;
    expect(result.value).toMatchObject({
      email: "b@example.com",
      phone: "15550100",
      emailConfirmedAt: now,
      phoneConfirmedAt: now,
      appMetadata: { provider: "email", providers: ["email", "phone"] },
    });
    expect(result.value.identities.map((i) => [i.provider, i.identityData])).toEqual([
      [
        "email",
        { sub: result.value.id, email: "b@example.com", email_verified: true, phone_verified: false },
      ],
      ["phone", { sub: result.value.id, phone: "15550100", email_verified: false, phone_verified: true }],
    ]);
  });

  it("creates a phone-only user without a password", async () => {
    const deps = fakeDeps();
    const result = await create(deps, { phone: "+15550101", password: "" });
    expect(result).toMatchObject({
      ok: true,
      value: { email: null, phone: "15550101", encryptedPassword: null, appMetadata: { provider: "phone" } },
    });
  });

  it("uses the given id, role and audience", async () => {
    const deps = fakeDeps();
    const id = "ABCDEF01-2345-4678-9ABC-DEF012345678";
    const result = await create(deps, { id, email: "c@example.com", role: "editor", aud: "partners" });
    expect(result).toMatchObject({
      ok: true,
      value: { id: id.toLowerCase(), role: "editor", aud: "partners" },
    });
    expect(deps.store.tables.users.has(id.toLowerCase())).toBe(true);
  });

  it("keeps an imported password hash as given", async () => {
    const deps = fakeDeps();
    const result = await create(deps, { email: "d@example.com", passwordHash: "bcrypt$imported" });
    expect(result).toMatchObject({ ok: true, value: { encryptedPassword: "bcrypt$imported" } });
  });

  it("applies a ban_duration, and 'none' leaves the user unbanned", async () => {
    const deps = fakeDeps();
    const banned = await create(deps, { email: "e@example.com", banDuration: "24h" });
    const unbanned = await create(deps, { email: "f@example.com", banDuration: "none" });
    const until = new Date(deps.clock.now().getTime() + 24 * 3600 * 1000);
    expect(banned).toMatchObject({ ok: true, value: { bannedUntil: until } });
    expect(unbanned).toMatchObject({ ok: true, value: { bannedUntil: null } });
  });

  describe("refuses, writing nothing,", () => {
    const cases: [string, AdminUserFields, object][] = [
      [
        "a user without email or phone",
        { password: "secret123" },
        failure("validation_failed", "Unable to validate email address: invalid format"),
      ],
      [
        "a malformed email",
        { email: "xx:;x@x.x" },
        failure("validation_failed", "Unable to validate email address: invalid format"),
      ],
      [
        "a malformed phone",
        { phone: "12345-invalid" },
        failure("validation_failed", "Invalid phone number format (E.164 required)"),
      ],
      [
        "a password and a password hash together",
        { email: "a@example.com", password: "secret123", passwordHash: "bcrypt$x" },
        failure("validation_failed", "Only a password or a password hash should be provided"),
      ],
      [
        "an empty password with a password hash, before any other check",
        { password: "", passwordHash: "bcrypt$x" },
        failure("validation_failed", "Only a password or a password hash should be provided"),
      ],
      [
        "an unsupported password hash",
        { email: "a@example.com", passwordHash: "md5$abc" },
        failure("validation_failed", "Invalid password hash format"),
      ],
      [
        "a weak password",
        { email: "a@example.com", password: "123" },
        failure("weak_password", "Password should be at least 6 characters."),
      ],
      [
        "an id that is not a UUID",
        { email: "a@example.com", id: "user-1" },
        failure("validation_failed", "user id must be a valid UUID"),
      ],
      [
        "the nil UUID as id",
        { email: "a@example.com", id: "00000000-0000-0000-0000-000000000000" },
        failure("validation_failed", "user id must be a valid UUID"),
      ],
      [
        "a malformed ban_duration",
        { email: "a@example.com", banDuration: "forever" },
        { ok: false, error: { code: "validation_failed" } },
      ],
    ];
    for (const [name, input, expected] of cases) {
      it(name, async () => {
        const deps = fakeDeps();
        expect(await create(deps, input)).toMatchObject(expected);
        expect(deps.store.tables.users.size).toBe(0);
        expect(deps.store.tables.audit).toEqual([]);
      });
    }
  });

  it("refuses an email already registered, whatever its case", async () => {
    const deps = withExisting("taken@example.com", "15550199");
    expect(await create(deps, { email: "Taken@Example.com" })).toMatchObject(
      failure("email_exists", "A user with this email address has already been registered"),
    );
    expect(deps.store.tables.users.size).toBe(1);
  });

  it("refuses a phone already registered", async () => {
    const deps = withExisting("taken@example.com", "15550199");
    expect(await create(deps, { phone: "+15550199" })).toMatchObject(
      failure("phone_exists", "Phone number already registered by another user"),
    );
  });

  it("refuses an id already taken", async () => {
    const deps = withExisting("taken@example.com", "15550199");
    expect(
      await create(deps, { id: "99999999-9999-4999-8999-999999999999", email: "x@example.com" }),
    ).toMatchObject(failure("user_already_exists", "User with this id already exists"));
    expect(deps.store.tables.users.size).toBe(1);
  });

  it("answers email_exists when a concurrent create takes the address after the check", async () => {
    const deps = withExisting("race@example.com", "15550199");
    // The look-up runs before the other create commits; the insert is what sees the clash.
    deps.store.users.findByEmail = async () => null;
    expect(await create(deps, { email: "race@example.com" })).toMatchObject(
      failure("email_exists", "A user with this email address has already been registered"),
    );
    expect(deps.store.tables.audit).toEqual([]);
  });
});
