import { describe, expect, it } from "vitest";
import { blankUser, type User, type UserWithIdentities } from "../accounts/index.js";
import { setUpSignUp } from "../testing/signup/sign-up-fixtures.js";
import type { SignupStore } from "./deps.js";
import { signUp } from "./sign-up.js";

const EXISTING_ID = "99999999-9999-4999-8999-999999999999";
const setUp = setUpSignUp;

function seedUser(deps: ReturnType<typeof setUp>, fields: Partial<User>): User {
  const user = blankUser({
    id: EXISTING_ID,
    aud: "authenticated",
    role: "authenticated",
    createdAt: new Date("2025-01-01T00:00:00Z"),
    encryptedPassword: "plain$old-password",
    ...fields,
  });
  deps.tables.users.set(user.id, user);
  return user;
}

const userOf = (result: Awaited<ReturnType<typeof signUp>>): UserWithIdentities => {
  if (!result.ok) throw result.error;
  if (result.value.kind !== "user") throw new Error("expected a user");
  return result.value.user;
};
// The identities differ by design: a confirmed address answers none (see the identities tests).
const withoutId = ({ id: _, identities: _identities, ...rest }: UserWithIdentities) => rest;

describe("duplicate signUp", () => {
  it("answers a fake user shaped like a real new one, hashing the same way and writing only the audit", async () => {
    const fresh = setUp();
    const input = { email: "Alice@example.com", password: "secret1", data: { plan: "pro" } };
    const real = userOf(await signUp(fresh, input));

    const deps = setUp();
    const existing = seedUser(deps, { email: "alice@example.com", emailConfirmedAt: new Date("2025-01-02") });
    const fake = userOf(await signUp(deps, input));
    expect(withoutId(fake)).toEqual(withoutId(real));
    expect(fake).toMatchObject({ identities: [] });
    expect(fake.id).not.toBe(EXISTING_ID);
    expect(deps.hashed).toEqual(fresh.hashed);
    expect([...deps.tables.users.values()]).toEqual([existing]);
    expect(deps.tables.identities.size).toBe(0);
    expect(deps.mailer.sent).toEqual([]);
    expect(deps.tables.audit).toEqual([
      {
        action: "user_repeated_signup",
        actorId: EXISTING_ID,
        actorUsername: "alice@example.com",
        traits: { provider: "email" },
        at: deps.clock.now(),
      },
    ]);
  });

  it("re-sends the confirmation mail to an unconfirmed owner, still answering a fake user", async () => {
    const deps = setUp();
    const existing = seedUser(deps, { email: "alice@example.com" });
    const fake = userOf(await signUp(deps, { email: "alice@example.com", password: "other-password" }));
    expect(fake.id).not.toBe(EXISTING_ID);
    expect(deps.mailer.sent).toMatchObject([
      { kind: "confirmation", to: "alice@example.com", token: "000001" },
    ]);
    expect(deps.mailer.sent[0]?.confirmationUrl).toContain("type=signup");
    // Another password than the one it holds: that one goes (whoever set it proved nothing), and the
    // one given is not taken either; one password check, no hash, as long as a new user's hash takes.
    expect(deps.tables.users.get(EXISTING_ID)).toEqual({
      ...existing,
      encryptedPassword: null,
      confirmationSentAt: deps.clock.now(),
      updatedAt: deps.clock.now(),
    });
    expect(deps.hashed).toEqual([]);
    expect(deps.checked).toEqual(["other-password"]);
  });

  it("keeps the password of an unconfirmed owner signing up again with it", async () => {
    const deps = setUp();
    const existing = seedUser(deps, { email: "alice@example.com" });
    userOf(await signUp(deps, { email: "alice@example.com", password: "old-password" }));
    expect(deps.tables.users.get(EXISTING_ID)).toEqual({ ...existing, confirmationSentAt: deps.clock.now() });
  });

  it("mails nothing for an address not confirmed on an account confirmed by phone", async () => {
    // Someone's phone account holds the address unconfirmed (taken from a linked identity the provider
    // did not vouch for): the address's owner signing up must not be mailed a way into that account.
    const deps = setUp();
    const existing = seedUser(deps, {
      email: "alice@example.com",
      phone: "15550001111",
      phoneConfirmedAt: new Date("2025-01-02"),
    });
    const fake = userOf(await signUp(deps, { email: "alice@example.com", password: "secret1" }));
    expect(fake.id).not.toBe(EXISTING_ID);
    expect(fake.identities).toMatchObject([{ provider: "email", userId: fake.id }]);
    expect(deps.mailer.sent).toEqual([]);
    expect(deps.tables.users.get(EXISTING_ID)).toEqual(existing);
  });

  it("with autoconfirm refuses with 400 user_already_exists and records the attempt", async () => {
    const deps = setUp({ mailerAutoconfirm: true });
    seedUser(deps, { email: "alice@example.com", emailConfirmedAt: new Date("2025-01-02") });
    expect(await signUp(deps, { email: "alice@example.com", password: "secret1" })).toMatchObject({
      ok: false,
      error: { code: "user_already_exists", message: "User already registered" },
    });
    expect(deps.tables.audit.map((e) => [e.action, e.actorId])).toEqual([
      ["user_repeated_signup", EXISTING_ID],
    ]);
    expect(deps.tables.sessions.size).toBe(0);
  });

  it("treats a phone that is taken the same way", async () => {
    const deps = setUp();
    seedUser(deps, { phone: "15551234567", phoneConfirmedAt: new Date("2025-01-02") });
    const fake = userOf(await signUp(deps, { phone: "+15551234567", password: "secret1" }));
    expect(fake).toMatchObject({ phone: "15551234567", phoneConfirmedAt: null });
    expect(fake.id).not.toBe(EXISTING_ID);
    expect(deps.tables.audit.map((e) => [e.action, e.actorUsername])).toEqual([
      ["user_repeated_signup", "15551234567"],
    ]);
  });

  it("answers a sign-up that lost an insert race like any duplicate", async () => {
    const deps = setUp();
    seedUser(deps, { email: "alice@example.com", emailConfirmedAt: new Date("2025-01-02") });
    // The competing sign-up commits between our lookup and our insert: the lookup sees nothing.
    let lookups = 0;
    const store: SignupStore = {
      ...deps.store,
      transaction: (fn) =>
        deps.store.transaction((repos) =>
          fn({
            ...repos,
            users: {
              ...repos.users,
              findByEmail: async (email) => (++lookups === 1 ? null : repos.users.findByEmail(email)),
            },
          }),
        ),
    };
    const result: Awaited<ReturnType<typeof signUp>> = await signUp(
      { ...deps, store },
      { email: "alice@example.com", password: "secret1" },
    );
    const fake = userOf(result);
    expect(fake.id).not.toBe(EXISTING_ID);
    expect(deps.tables.users.size).toBe(1);
    expect(deps.tables.audit.map((e) => [e.action, e.actorId])).toEqual([
      ["user_repeated_signup", EXISTING_ID],
    ]);
  });
});
