import { describe, expect, it } from "vitest";
import type { AuditEntry } from "../../accounts/index.js";
import { at, type MakeStore, newId, seedUser, useStore } from "../harness.js";

/** The `AuditLog` contract; run it against every implementation. */
export function describeAuditLogContract(name: string, makeStore: MakeStore): void {
  describe(`AuditLog contract: ${name}`, () => {
    const harness = useStore(makeStore);

    it("records entries with actor, action, traits, ip address and time", async () => {
      const { store, auditEntries } = harness();
      const login: AuditEntry = {
        action: "login",
        actorId: newId(),
        actorUsername: "alice@example.com",
        traits: { provider: "email", nested: { a: [1, "ü"] } },
        ipAddress: "2001:db8::1",
        at: at(1),
      };
      const logout: AuditEntry = {
        action: "logout",
        actorId: login.actorId,
        actorUsername: "15551234567",
        at: at(2),
      };
      await store.audit.record(login);
      await store.audit.record(logout);
      expect(await auditEntries()).toEqual([login, logout]);
    });

    it("records inside the transaction of the change it describes, which commits both", async () => {
      const { store, auditEntries } = harness();
      const entry: AuditEntry = {
        action: "user_signedup",
        actorId: newId(),
        actorUsername: "bob@example.com",
        traits: { provider: "email" },
        at: at(3),
      };
      const user = await store.transaction(async (repos) => {
        const created = await seedUser(repos);
        await repos.audit.record({ ...entry, actorId: created.id });
        return created;
      });
      expect(await auditEntries()).toEqual([{ ...entry, actorId: user.id }]);
    });
  });
}
