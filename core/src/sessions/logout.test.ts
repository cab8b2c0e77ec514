import { describe, expect, it } from "vitest";
import { blankUser } from "../accounts/index.js";
import { fakeDeps } from "../testing/index.js";
import { logout } from "./logout.js";
import { refreshSession } from "./refresh-session.js";
import { issueSession } from "./steps/issue-session.js";

const ALICE = "11111111-1111-4111-8111-111111111111";
const BOB = "22222222-2222-4222-8222-222222222222";

/** Alice with three sessions, Bob with one. */
async function setUp() {
  const deps = fakeDeps();
  const now = deps.clock.now();
  const signIn = async (id: string, email: string) => {
    const user = blankUser({ id, aud: "authenticated", role: "authenticated", createdAt: now, email });
    deps.store.tables.users.set(id, user);
    return deps.store.transaction((repos) => issueSession(deps, repos, user, "password", now));
  };
  const alice = [
    await signIn(ALICE, "alice@example.com"),
    await signIn(ALICE, "alice@example.com"),
    await signIn(ALICE, "alice@example.com"),
  ];
  const bob = await signIn(BOB, "bob@example.com");
  const liveSessions = () => [...deps.store.tables.sessions.keys()];
  return { deps, alice, bob, liveSessions };
}

describe("logout", () => {
  it("global ends every session of the user and no other", async () => {
    const { deps, alice, bob, liveSessions } = await setUp();
    const result = await logout(deps, {
      userId: ALICE,
      sessionId: alice[0]?.session.id ?? null,
      scope: "global",
    });
    expect(result.ok).toBe(true);
    expect(liveSessions()).toEqual([bob.session.id]);
  });

  it("local ends only the current session", async () => {
    const { deps, alice, bob, liveSessions } = await setUp();
    const [a0, a1, a2] = alice.map((t) => t.session.id);
    await logout(deps, { userId: ALICE, sessionId: a1 ?? null, scope: "local" });
    expect(liveSessions().sort()).toEqual([a0, a2, bob.session.id].sort());
  });

  it("others ends every session of the user but the current one", async () => {
    const { deps, alice, bob, liveSessions } = await setUp();
    const current = alice[2]?.session.id ?? null;
    await logout(deps, { userId: ALICE, sessionId: current, scope: "others" });
    expect(liveSessions().sort()).toEqual([current, bob.session.id].sort());
  });

  it("without a session in the token, any scope logs out globally", async () => {
    const { deps, bob, liveSessions } = await setUp();
    await logout(deps, { userId: ALICE, sessionId: null, scope: "local" });
    expect(liveSessions()).toEqual([bob.session.id]);
  });

  it("the ended sessions' refresh tokens no longer refresh", async () => {
    const { deps, alice } = await setUp();
    await logout(deps, { userId: ALICE, sessionId: alice[0]?.session.id ?? null, scope: "others" });
    const kept = await refreshSession(deps, { refreshToken: alice[0]?.refreshToken ?? "" });
    const ended = await refreshSession(deps, { refreshToken: alice[1]?.refreshToken ?? "" });
    expect(kept.ok).toBe(true);
    expect(ended).toMatchObject({ ok: false, error: { code: "refresh_token_not_found" } });
  });

  it("records a logout audit entry for the user", async () => {
    const { deps } = await setUp();
    await logout(deps, { userId: ALICE, sessionId: null, scope: "global" });
    expect(deps.store.tables.audit.at(-1)).toEqual({
      action: "logout",
      actorId: ALICE,
      actorUsername: "alice@example.com",
      at: deps.clock.now(),
    });
  });
});
