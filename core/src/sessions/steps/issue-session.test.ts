import { describe, expect, it } from "vitest";
import { aUser, fakeDeps } from "../../testing/index.js";
import { issueSession } from "./issue-session.js";

describe("issueSession", () => {
  it("starts no session for a soft-deleted user, whatever flow led there", async () => {
    const deps = fakeDeps();
    const user = aUser({ emailConfirmedAt: deps.clock.now(), deletedAt: deps.clock.now() });
    deps.store.tables.users.set(user.id, user);
    await expect(
      deps.store.transaction((repos) => issueSession(deps, repos, user, "otp", deps.clock.now())),
    ).rejects.toMatchObject({ code: "user_not_found" });
    expect(deps.store.tables.sessions.size).toBe(0);
    expect(deps.store.tables.tokens.size).toBe(0);
  });

  it("starts a session with its first refresh token for a user who is not deleted", async () => {
    const deps = fakeDeps();
    const user = aUser({ emailConfirmedAt: deps.clock.now() });
    deps.store.tables.users.set(user.id, user);
    const started = await deps.store.transaction((repos) =>
      issueSession(deps, repos, user, "otp", deps.clock.now()),
    );
    expect(started).toMatchObject({ method: "otp", user: { id: user.id }, session: { userId: user.id } });
    expect(deps.store.tables.tokens.size).toBe(1);
  });
});
