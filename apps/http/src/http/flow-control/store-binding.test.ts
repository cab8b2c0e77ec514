import type { AuthDeps, StoreTraits } from "@authsvc/core";
import { fakeDeps } from "@authsvc/core/testing";
import { describe, expect, it } from "vitest";
import { DeadlinePassedError, RequestDeadline } from "./request-deadline.js";
import { storeBinder } from "./store-binding.js";

type Store = AuthDeps["store"];

/** The fake store with every call to `sessions` and `quota` recorded (name and first argument). */
function recordedStore() {
  const store = fakeDeps().store;
  const calls: { method: string; input: unknown }[] = [];
  for (const port of [store.sessions, store.quota] as unknown as Record<string, unknown>[]) {
    for (const [method, fn] of Object.entries(port)) {
      if (typeof fn !== "function") continue;
      port[method] = (...args: unknown[]) => {
        calls.push({ method, input: args[0] });
        return fn.apply(port, args);
      };
    }
  }
  return { store, calls };
}

const expired = () => {
  const deadline = new RequestDeadline();
  deadline.expire();
  return deadline;
};

/** A refresh of a token the store does not know: answered `not_found`, nothing written. */
const grantInput: Parameters<Store["sessions"]["grantRefresh"]>[0] = {
  tokenHash: "a",
  childHash: "b",
  now: new Date(0),
  rotationEnabled: true,
  reuseIntervalMs: 0,
  limits: { timeboxMs: 0, inactivityTimeoutMs: 0, singlePerUser: false },
};

describe("storeBinder: the commit points the store declares", () => {
  it("refuses a declared commit once the deadline passed, before the store is called", async () => {
    const { store, calls } = recordedStore();
    const bound = storeBinder(store)(expired(), () => "192.0.2.1");
    expect(() => bound.sessions.grantRefresh(grantInput)).toThrow(DeadlinePassedError);
    expect(() => bound.quota.take("email", 1, 1_000, new Date(0))).toThrow(DeadlinePassedError);
    expect(calls).toEqual([]);
    // A call the store does not declare as a commit (a read) still runs.
    await bound.sessions.find("00000000-0000-4000-8000-000000000000");
    expect(calls.map((c) => c.method)).toEqual(["find"]);
  });

  it("marks the request committed at a declared commit, not at a read: it can no longer be timed out", async () => {
    const { store } = recordedStore();
    const bind = storeBinder(store);
    const reading = new RequestDeadline();
    await bind(reading, () => undefined).sessions.find("00000000-0000-4000-8000-000000000000");
    expect(reading.expire()).toBe(true);
    const committing = new RequestDeadline();
    await bind(committing, () => undefined).quota.take("email", 1, 1_000, new Date(0));
    expect(committing.expire()).toBe(false);
  });

  it("follows the declaration, not the method's name: an undeclared grant is a plain call", async () => {
    const { store, calls } = recordedStore();
    const none: StoreTraits = { quota: { take: { commits: true } } };
    const bound = storeBinder(store, none)(expired(), () => "192.0.2.1");
    await bound.sessions.grantRefresh(grantInput);
    expect(calls).toEqual([{ method: "grantRefresh", input: grantInput }]);
    expect(() => bound.quota.take("email", 1, 1_000, new Date(0))).toThrow(DeadlinePassedError);
  });

  it("fills the client's address into the calls declared addressed, unless the use case gave one", async () => {
    const { store, calls } = recordedStore();
    const bound = storeBinder(store)(new RequestDeadline(), () => "192.0.2.1");
    await bound.sessions.grantRefresh(grantInput);
    await bound.sessions.grantRefresh({ ...grantInput, ipAddress: "198.51.100.7" });
    expect(calls.map((c) => (c.input as { ipAddress?: string }).ipAddress)).toEqual([
      "192.0.2.1",
      "198.51.100.7",
    ]);
  });

  it("checks the deadline when a transaction commits, and stamps the audit entries written in it", async () => {
    const { store } = recordedStore();
    const deadline = new RequestDeadline();
    const bound = storeBinder(store)(deadline, () => "192.0.2.1");
    const at = new Date(0);
    await bound.transaction((repos) =>
      repos.audit.record({ action: "logout", actorId: "u", actorUsername: "u", at }),
    );
    const { entries } = await store.audit.list({ offset: 0, limit: 10 });
    expect(entries.map((e) => e.ipAddress)).toEqual(["192.0.2.1"]);
    await expect(
      storeBinder(store)(expired(), () => undefined).transaction(async () => null),
    ).rejects.toThrow(DeadlinePassedError);
  });

  it("keeps each request's transactions to its own deadline and address when two are bound at once", async () => {
    const { store } = recordedStore();
    const bind = storeBinder(store);
    const late = bind(expired(), () => "192.0.2.1");
    const live = bind(new RequestDeadline(), () => "198.51.100.7");
    const at = new Date(0);
    await expect(late.transaction(async () => null)).rejects.toThrow(DeadlinePassedError);
    await live.transaction((repos) =>
      repos.audit.record({ action: "logout", actorId: "u", actorUsername: "u", at }),
    );
    await expect(late.transaction(async () => null)).rejects.toThrow(DeadlinePassedError);
    const { entries } = await store.audit.list({ offset: 0, limit: 10 });
    expect(entries.map((e) => e.ipAddress)).toEqual(["198.51.100.7"]);
  });
});
