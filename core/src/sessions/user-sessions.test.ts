import { describe, expect, it } from "vitest";
import { blankUser } from "../accounts/index.js";
import { fakeDeps } from "../testing/index.js";
import { authenticate } from "./authenticate.js";
import { refreshSession } from "./refresh-session.js";
import { issueSession, signSession } from "./steps/issue-session.js";
import { listUserSessions, revokeUserSession } from "./user-sessions.js";

const ALICE = "11111111-1111-4111-8111-111111111111";
const BOB = "22222222-2222-4222-8222-222222222222";

async function setUp() {
  const deps = fakeDeps({
    sessions: { timeboxMs: 3_600_000, inactivityTimeoutMs: 600_000, singlePerUser: false },
  });
  const person = (id: string, email: string) => {
    const user = blankUser({
      id,
      aud: "authenticated",
      role: "authenticated",
      createdAt: deps.clock.now(),
      email,
    });
    deps.store.tables.users.set(id, user);
    return user;
  };
  const alice = person(ALICE, "alice@example.com");
  const bob = person(BOB, "bob@example.com");
  const signIn = async (user: typeof alice) => {
    const started = await deps.store.transaction((repos) =>
      issueSession(deps, repos, user, "password", deps.clock.now()),
    );
    const signed = await signSession(deps, started);
    if (!signed.ok) throw signed.error;
    return signed.value;
  };
  return { deps, alice, bob, signIn };
}

describe("listUserSessions", () => {
  it("lists only the user's sessions, oldest first, marking the current one and their limits", async () => {
    const { deps, alice, bob, signIn } = await setUp();
    const laptop = await signIn(alice);
    deps.clock.advance(1000);
    const phone = await signIn(alice);
    await signIn(bob);
    deps.clock.advance(700_000);
    const result = await listUserSessions(deps, { userId: ALICE, currentSessionId: phone.session.id });
    if (!result.ok) throw result.error;
    expect(result.value.map((v) => [v.session.id, v.current, v.active])).toEqual([
      [laptop.session.id, false, false],
      [phone.session.id, true, false],
    ]);
    expect(result.value[0]?.notAfter).toEqual(new Date(laptop.session.createdAt.getTime() + 3_600_000));
  });

  it("shows a refreshed session as active again", async () => {
    const { deps, alice, signIn } = await setUp();
    const tokens = await signIn(alice);
    deps.clock.advance(500_000);
    expect((await refreshSession(deps, { refreshToken: tokens.refreshToken })).ok).toBe(true);
    deps.clock.advance(500_000);
    const result = await listUserSessions(deps, { userId: ALICE, currentSessionId: null });
    expect(result).toMatchObject({ ok: true, value: [{ active: true, current: false }] });
  });
});

describe("revokeUserSession", () => {
  it("ends one of the user's sessions: its refresh token and access tokens stop working", async () => {
    const { deps, alice, signIn } = await setUp();
    const laptop = await signIn(alice);
    const phone = await signIn(alice);
    expect(await revokeUserSession(deps, { userId: ALICE, sessionId: laptop.session.id })).toEqual({
      ok: true,
      value: undefined,
    });
    expect(await refreshSession(deps, { refreshToken: laptop.refreshToken })).toMatchObject({
      ok: false,
      error: { code: "refresh_token_not_found" },
    });
    expect(await authenticate(deps, { bearerToken: laptop.accessToken })).toMatchObject({
      ok: false,
      error: { code: "session_not_found" },
    });
    expect((await authenticate(deps, { bearerToken: phone.accessToken })).ok).toBe(true);
    expect(deps.store.tables.audit.at(-1)).toMatchObject({
      action: "logout",
      actorId: ALICE,
      actorUsername: "alice@example.com",
      traits: { session_id: laptop.session.id },
    });
  });

  it("answers another user's session, an unknown one and a malformed id alike, ending nothing", async () => {
    const { deps, bob, signIn } = await setUp();
    const bobs = await signIn(bob);
    const notFound = { ok: false, error: { code: "session_not_found", message: "Session not found" } };
    for (const sessionId of [bobs.session.id, "33333333-3333-4333-8333-333333333333", "nope"]) {
      expect(await revokeUserSession(deps, { userId: ALICE, sessionId })).toMatchObject(notFound);
    }
    expect(await deps.store.sessions.find(bobs.session.id)).not.toBeNull();
  });
});
