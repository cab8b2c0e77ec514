import { describe, expect, it } from "vitest";
import type { AuditEntry, AuditSearchField } from "../../accounts/index.js";
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

    describe("list", () => {
      async function seed(): Promise<void> {
        const { store } = harness();
        const entries: AuditEntry[] = [
          { action: "login", actorId: newId(), actorUsername: "Alice@Example.com", at: at(1) },
          { action: "token_refreshed", actorId: newId(), actorUsername: "15551234567", at: at(2) },
          {
            action: "user_deleted",
            actorId: "",
            actorUsername: "service_role",
            traits: { user_id: "x" },
            ipAddress: "192.0.2.1",
            at: at(3),
          },
          { action: "logout", actorId: newId(), actorUsername: "100%_sure@example.com", at: at(4) },
        ];
        for (const entry of entries) await store.audit.record(entry);
      }

      it("pages newest first with the total, each entry with id, payload, time and address", async () => {
        await seed();
        const { store } = harness();
        const first = await store.audit.list({ offset: 0, limit: 2 });
        expect(first.total).toBe(4);
        expect(first.entries.map((e) => e.payload.action)).toEqual(["logout", "user_deleted"]);
        expect(first.entries[1]).toEqual({
          id: expect.stringMatching(/^[0-9a-f-]{36}$/),
          payload: {
            actor_id: "",
            actor_username: "service_role",
            actor_via_sso: false,
            action: "user_deleted",
            log_type: "team",
            traits: { user_id: "x" },
          },
          createdAt: at(3),
          ipAddress: "192.0.2.1",
        });
        expect(first.entries[0]?.ipAddress).toBe("");
        const rest = await store.audit.list({ offset: 2, limit: 2 });
        expect(rest.entries.map((e) => e.payload.action)).toEqual(["token_refreshed", "login"]);
        expect(await store.audit.list({ offset: 10, limit: 2 })).toEqual({ entries: [], total: 4 });
      });

      it("searches payload fields for a text, ignoring case, with % and _ taken literally", async () => {
        await seed();
        const { store } = harness();
        const search = async (fields: AuditSearchField[], text: string) =>
          (await store.audit.list({ offset: 0, limit: 10, search: { fields, text } })).entries.map(
            (e) => e.payload.action,
          );
        expect(await search(["actor_username", "actor_name"], "alice@EXAMPLE")).toEqual(["login"]);
        expect(await search(["actor_username"], "example.com")).toEqual(["logout", "login"]);
        expect(await search(["action"], "token")).toEqual(["token_refreshed"]);
        expect(await search(["log_type"], "account")).toEqual(["logout", "login"]);
        expect(await search(["actor_username"], "100%_")).toEqual(["logout"]);
        expect(await search(["actor_username"], "1%")).toEqual([]);
        expect(await search(["actor_username"], "s_r")).toEqual([]);
        const counted = await store.audit.list({
          offset: 0,
          limit: 1,
          search: { fields: ["log_type"], text: "account" },
        });
        expect(counted.total).toBe(2);
      });
    });
  });
}
