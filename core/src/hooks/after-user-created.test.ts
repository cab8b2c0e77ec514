import { describe, expect, it } from "vitest";
import { blankUser, type User } from "../accounts/index.js";
import { failures } from "../failures.js";
import { err, ok, type Result } from "../kernel/index.js";
import type { Repositories, Store } from "../store.js";
import { fakeStore } from "../testing/fake-store.js";
import { fakeHooks } from "../testing/hooks/fake-hooks.js";
import { withAfterUserCreated } from "./after-user-created.js";

const NOW = new Date("2026-01-01T00:00:00Z");
const user = (id: string, email: string): User =>
  blankUser({ id, aud: "authenticated", role: "authenticated", createdAt: NOW, updatedAt: NOW, email });
const ANN = "00000000-0000-4000-8000-00000000000a";
const BEA = "00000000-0000-4000-8000-00000000000b";
const CAT = "00000000-0000-4000-8000-00000000000c";

function setup(answer: Result<Readonly<Record<string, unknown>>> = ok({})) {
  const hooks = fakeHooks({ after_user_created: () => answer });
  const raw = fakeStore();
  const store = withAfterUserCreated<Repositories, Store>(raw, hooks.dispatcher);
  const heard = () => hooks.calls.map((call) => (call.input as { user: User }).user.id);
  return { store, raw, heard };
}

describe("withAfterUserCreated", () => {
  it("runs the hook for each user a transaction inserted, once it has resolved", async () => {
    const { store, heard } = setup();
    await store.transaction(async (repos) => {
      await repos.users.insert(user(ANN, "ann@example.com"));
      await repos.users.insert(user(BEA, "bea@example.com"));
      // Inside the transaction nothing has been announced yet.
      expect(heard()).toEqual([]);
    });
    expect(heard()).toEqual([ANN, BEA]);
  });

  it("says nothing of a transaction that threw, nor of an insert that clashed", async () => {
    const { store, heard } = setup();
    await expect(
      store.transaction(async (repos) => {
        await repos.users.insert(user(ANN, "ann@example.com"));
        throw new Error("rolled back");
      }),
    ).rejects.toThrow("rolled back");
    expect(heard()).toEqual([]);
    await store.users.insert(user(BEA, "bea@example.com"));
    const clash = await store.transaction((repos) => repos.users.insert(user(CAT, "bea@example.com")));
    expect(clash).toBe("duplicate_email");
    expect(heard()).toEqual([BEA]);
  });

  it("keeps the user and the caller's result when the hook fails", async () => {
    const { store, raw, heard } = setup(err(failures.hookFailed("down")));
    const result = await store.transaction(async (repos) => {
      await repos.users.insert(user(ANN, "ann@example.com"));
      return "committed";
    });
    expect(result).toBe("committed");
    expect(heard()).toEqual([ANN]);
    expect(await raw.users.findById(ANN)).not.toBeNull();
  });

  it("is the store itself when the hook is off", () => {
    const raw = fakeStore();
    expect(withAfterUserCreated<Repositories, Store>(raw, fakeHooks().dispatcher)).toBe(raw);
  });
});
