import { describe, expect, it } from "vitest";
import { anIdentity, aUser, fakeDeps } from "../../testing/index.js";
import { createUser } from "./create-user.js";

describe("createUser", () => {
  it("inserts the user with one identity per channel", async () => {
    const deps = fakeDeps();
    const now = deps.clock.now();
    const user = aUser({ email: "a@example.com", phone: "15551234567" });
    const created = await deps.store.transaction((repos) => createUser(deps, repos, user, { now }));
    expect(created).toMatchObject({ created: true, user });
    expect(deps.store.tables.users.get(user.id)).toEqual(user);
    const stored = [...deps.store.tables.identities.values()];
    expect(stored.map((i) => [i.userId, i.provider])).toEqual([
      [user.id, "email"],
      [user.id, "phone"],
    ]);
    if (created.created) expect(created.identities).toEqual(stored);
  });

  it("stores exactly the identities it is given (none for an anonymous user)", async () => {
    const deps = fakeDeps();
    const now = deps.clock.now();
    const user = aUser({ email: "b@example.com" });
    const identity = anIdentity(user, { identityData: { sub: user.id, email_verified: true } });
    await createUser(deps, deps.store, user, { now, identities: [identity] });
    const anonymous = aUser({ email: null, isAnonymous: true });
    await createUser(deps, deps.store, anonymous, { now, identities: [] });
    expect([...deps.store.tables.identities.values()]).toEqual([identity]);
    expect(deps.store.tables.users.has(anonymous.id)).toBe(true);
  });

  it("reports a clash with an existing user and writes nothing", async () => {
    const deps = fakeDeps();
    const now = deps.clock.now();
    const first = aUser({ email: "c@example.com", phone: "15550000001" });
    await createUser(deps, deps.store, first, { now });
    const clashes = await Promise.all([
      createUser(deps, deps.store, aUser({ email: "c@example.com" }), { now }),
      createUser(deps, deps.store, aUser({ email: null, phone: "15550000001" }), { now }),
      createUser(deps, deps.store, aUser({ id: first.id, email: "d@example.com" }), { now }),
    ]);
    expect(clashes).toEqual([
      { created: false, clash: "duplicate_email" },
      { created: false, clash: "duplicate_phone" },
      { created: false, clash: "duplicate_id" },
    ]);
    expect(deps.store.tables.users.size).toBe(1);
    expect(deps.store.tables.identities.size).toBe(2);
  });
});
