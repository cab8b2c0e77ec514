import { describe, expect, it } from "vitest";
import { issueSession } from "../sessions/index.js";
import { fakeDeps } from "../testing/index.js";
import { adminCreateUser } from "./admin-create-user.js";
import { adminDeleteUser } from "./admin-delete-user.js";

const actor = { role: "service_role" };

async function setUp() {
  const deps = fakeDeps();
  const create = async (email: string) => {
    const created = await adminCreateUser(deps, {
      actor,
      fields: { email, phone: email.startsWith("a") ? "+15550100" : undefined },
    });
    if (!created.ok) throw created.error;
    await deps.store.transaction((repos) =>
      issueSession(deps, repos, created.value, "password", deps.clock.now()),
    );
    return created.value;
  };
  const alice = await create("alice@example.com");
  const bob = await create("bob@example.com");
  deps.store.tables.audit.length = 0;
  return { deps, alice, bob };
}

describe("adminDeleteUser", () => {
  it("deletes the user with identities, sessions and refresh tokens, and records who did it", async () => {
    const { deps, alice, bob } = await setUp();
    expect(await adminDeleteUser(deps, { actor, userId: alice.id })).toEqual({ ok: true, value: undefined });
    const { users, identities, sessions, tokens, audit } = deps.store.tables;
    expect([...users.keys()]).toEqual([bob.id]);
    expect([...identities.values()].map((i) => i.userId)).toEqual([bob.id]);
    expect([...sessions.values()].map((s) => s.userId)).toEqual([bob.id]);
    expect([...tokens.values()].map((t) => t.userId)).toEqual([bob.id]);
    expect(audit).toEqual([
      {
        action: "user_deleted",
        actorId: "",
        actorUsername: "service_role",
        traits: { user_id: alice.id, user_email: "alice@example.com", user_phone: "15550100" },
        at: deps.clock.now(),
      },
    ]);
  });

  it("answers 404 user_not_found for an unknown user and records nothing", async () => {
    const { deps } = await setUp();
    expect(
      await adminDeleteUser(deps, { actor, userId: "12345678-1234-4234-8234-123456789012" }),
    ).toMatchObject({
      ok: false,
      error: { code: "user_not_found", message: "User not found" },
    });
    expect(deps.store.tables.users.size).toBe(2);
    expect(deps.store.tables.audit).toEqual([]);
  });

  it("answers 404 validation_failed for an id that is not a UUID", async () => {
    const { deps } = await setUp();
    expect(await adminDeleteUser(deps, { actor, userId: "nope" })).toMatchObject({
      ok: false,
      error: { failure: "userIdNotUuid", code: "validation_failed", message: "user_id must be an UUID" },
    });
  });
});
