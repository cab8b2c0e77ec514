import type { StoreTraits } from "@authsvc/core";
import { fakeDeps } from "@authsvc/core/testing";
import { describe, expect, it } from "vitest";
import { inMemoryTelemetry } from "../../testing/telemetry.js";
import { observeStore } from "./observe-store.js";

/** The fake store observed with `traits` as its declaration. */
function observed(traits: StoreTraits) {
  const t = inMemoryTelemetry();
  const store = observeStore(fakeDeps().store, {
    tracer: undefined,
    instruments: t.instruments,
    inFlight: t.inFlight,
    dbSystem: "postgresql",
    traits,
  });
  return { store, metric: t.metric };
}

const now = new Date(0);

describe("observeStore: committed outcomes", () => {
  it("are what the store declares a call stands for, whatever the method is called", async () => {
    const { store, metric } = observed({
      quota: { take: { outcome: ([key]) => (key === "email" ? { kind: "signed_up" } : undefined) } },
    });
    await store.quota.take("email", 10, 1_000, now);
    await store.quota.take("sms", 10, 1_000, now);
    await store.transaction((repos) => repos.quota.take("email", 10, 1_000, now));
    expect(await metric("authsvc_sign_ups")).toBe(2);
  });

  it("count nothing for a call declared without one", async () => {
    const { store, metric } = observed({});
    await store.transaction((repos) =>
      repos.audit.record({ action: "user_signedup", actorId: "u", actorUsername: "u", at: now }),
    );
    expect(await metric("authsvc_sign_ups")).toBeUndefined();
  });
});
