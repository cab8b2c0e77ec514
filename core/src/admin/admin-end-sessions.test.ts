import { describe, expect, it } from "vitest";
import type { User } from "../accounts/index.js";
import { issueSession } from "../sessions/index.js";
import { fakeDeps } from "../testing/index.js";
import { adminCreateUser } from "./admin-create-user.js";
import { adminEndSessions } from "./admin-end-sessions.js";

const actor = {
  role: "admin_console",
  id: "a1a1a1a1-1111-4111-8111-111111111111",
  username: "ops@example.com",
};

/** Two users with two sessions each. */
async function setUp() {
  const deps = fakeDeps();
  const ids: string[] = [];
  for (const email of ["alice@example.com", "bob@example.com"]) {
    const created = await adminCreateUser(deps, { actor, fields: { email, emailConfirm: true } });
    if (!created.ok) throw created.error;
    ids.push(created.value.id);
    const user = deps.store.tables.users.get(created.value.id) as User;
    for (let i = 0; i < 2; i++)
      await deps.store.transaction((repos) => issueSession(deps, repos, user, "password", deps.clock.now()));
  }
  deps.store.tables.audit.length = 0;
  const sessionsOf = (userId: string) =>
    [...deps.store.tables.sessions.values()].filter((s) => s.userId === userId);
  return { deps, alice: ids[0] as string, bob: ids[1] as string, sessionsOf };
}

describe("adminEndSessions", () => {
  it("ends one session of the user, audited as a logout by the administrator", async () => {
    const { deps, alice, sessionsOf } = await setUp();
    const [first, second] = sessionsOf(alice);
    const ended = await adminEndSessions(deps, { actor, userId: alice, sessionId: first?.id as string });
    expect(ended).toEqual({ ok: true, value: { ended: 1 } });
    expect(sessionsOf(alice).map((s) => s.id)).toEqual([second?.id]);
    expect(deps.store.tables.audit).toEqual([
      {
        action: "logout",
        actorId: actor.id,
        actorUsername: "ops@example.com",
        traits: { user_id: alice, session_id: first?.id },
        at: deps.clock.now(),
      },
    ]);
  });

  it("ends every session of the user and no one else's", async () => {
    const { deps, alice, bob, sessionsOf } = await setUp();
    expect(await adminEndSessions(deps, { actor, userId: alice })).toEqual({ ok: true, value: { ended: 2 } });
    expect(sessionsOf(alice)).toEqual([]);
    expect(sessionsOf(bob).length).toBe(2);
  });

  it("answers another user's session as one that does not exist, ending nothing", async () => {
    const { deps, alice, bob, sessionsOf } = await setUp();
    const bobs = sessionsOf(bob)[0]?.id as string;
    expect(await adminEndSessions(deps, { actor, userId: alice, sessionId: bobs })).toMatchObject({
      ok: false,
      error: { code: "session_not_found" },
    });
    expect(await adminEndSessions(deps, { actor, userId: alice, sessionId: "not-a-uuid" })).toMatchObject({
      ok: false,
      error: { code: "session_not_found" },
    });
    expect(sessionsOf(bob).length).toBe(2);
    expect(deps.store.tables.audit).toEqual([]);
  });
});
