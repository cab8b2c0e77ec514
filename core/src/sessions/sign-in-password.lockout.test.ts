import { describe, expect, it } from "vitest";
import { blankUser } from "../accounts/index.js";
import { fakeDeps } from "../testing/index.js";
import { signInWithPassword } from "./sign-in-password.js";

const USER_ID = "11111111-1111-4111-8111-111111111111";

/** A confirmed user alice@example.com with the password "secret1", on the default lockout (10, 20, 15 min). */
function withUser() {
  const deps = fakeDeps();
  const now = deps.clock.now();
  deps.store.tables.users.set(
    USER_ID,
    blankUser({
      id: USER_ID,
      aud: "authenticated",
      role: "authenticated",
      createdAt: now,
      email: "alice@example.com",
      encryptedPassword: "plain$secret1",
      emailConfirmedAt: now,
    }),
  );
  const attempt = (password: string, email = "alice@example.com") =>
    signInWithPassword(deps, { email, password });
  const locks = () => deps.store.tables.audit.filter((e) => e.action === "user_locked");
  return { deps, attempt, locks };
}

/** What a caller sees of an answer: ok, or the error's code and message. */
const seen = (r: Awaited<ReturnType<ReturnType<typeof withUser>["attempt"]>>) =>
  r.ok ? "signed in" : `${r.error.code}: ${r.error.message}`;
const WRONG = "invalid_credentials: Invalid login credentials";

describe("password sign-in: the account lockout", () => {
  it("lets nine wrong passwords through unhindered; from the tenth on, attempts wait (1 s, doubling)", async () => {
    const { deps, attempt } = withUser();
    for (let i = 0; i < 9; i++) expect(seen(await attempt("nope"))).toBe(WRONG);
    expect(seen(await attempt("secret1"))).toBe("signed in");
    // The right password cleared the count: ten more wrong ones, then the right one is held.
    for (let i = 0; i < 10; i++) expect(seen(await attempt("nope"))).toBe(WRONG);
    expect(seen(await attempt("secret1"))).toBe(WRONG);
    // That refusal counted too (11): the wait is now 2 s after it.
    deps.clock.advance(1_000);
    expect(seen(await attempt("secret1"))).toBe(WRONG);
    deps.clock.advance(4_000);
    expect(seen(await attempt("secret1"))).toBe("signed in");
  });

  it("locks at twenty, once, audited; while locked the right password answers as a wrong one", async () => {
    const { deps, attempt, locks } = withUser();
    for (let i = 0; i < 25; i++) {
      expect(seen(await attempt("nope"))).toBe(WRONG);
      deps.clock.advance(61_000);
    }
    expect(locks()).toHaveLength(1);
    expect(locks()[0]).toMatchObject({ actorId: USER_ID, traits: { failed_attempts: 20 } });
    expect(seen(await attempt("secret1"))).toBe(WRONG);
    // 25 × 61 s after the 20th failure's lock: 5 × 61 s = 305 s of 15 min passed.
    deps.clock.advance(600_000);
    expect(seen(await attempt("secret1"))).toBe("signed in");
    expect(locks()).toHaveLength(1);
  });

  it("counts and locks an address nobody has exactly as an account's: the lockout tells nothing", async () => {
    const { deps, attempt } = withUser();
    const fake = deps.store.signInFailures as unknown as { locks: string[] };
    const answers: string[] = [];
    for (let i = 0; i < 22; i++) {
      answers.push(seen(await attempt("nope", "nobody@example.com")));
      answers.push(seen(await attempt("nope")));
      deps.clock.advance(61_000);
    }
    expect(new Set(answers)).toEqual(new Set([WRONG]));
    expect(fake.locks).toHaveLength(2);
  });

  it("forgets the count twelve hours after the last wrong password", async () => {
    const { deps, attempt } = withUser();
    for (let i = 0; i < 10; i++) expect(seen(await attempt("nope"))).toBe(WRONG);
    deps.clock.advance(12 * 3_600_000 + 1_000);
    expect(seen(await attempt("secret1"))).toBe("signed in");
  });

  it("is off with LOCKOUT_ENABLED=false", async () => {
    const { deps } = withUser();
    const off = {
      ...deps,
      settings: { ...deps.settings, lockout: { ...deps.settings.lockout, enabled: false } },
    };
    for (let i = 0; i < 30; i++)
      await signInWithPassword(off, { email: "alice@example.com", password: "nope" });
    const answer = await signInWithPassword(off, { email: "alice@example.com", password: "secret1" });
    expect(answer.ok).toBe(true);
  });
});
