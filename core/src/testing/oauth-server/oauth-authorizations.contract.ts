import { describe, expect, it } from "vitest";
import { at, type MakeStore, newHash, newId, seedUser, useStore } from "../harness.js";
import { anAuthorization, anOAuthClient } from "./oauth-fixtures.js";

/** OAuth authorization requests: pushed requests, single-use codes, device requests. */
export function describeOAuthAuthorizationStoreContract(name: string, makeStore: MakeStore): void {
  describe(`${name}: OAuth authorization stores`, () => {
    const harness = useStore(makeStore);

    it("hands a pushed request once, to its client, before it expires", async () => {
      const { store } = harness();
      const client = anOAuthClient();
      const other = anOAuthClient();
      await store.oauthClients.insert(client);
      await store.oauthClients.insert(other);
      const pushed = {
        id: newId(),
        requestUriHash: newHash(),
        clientId: client.id,
        parameters: { redirect_uri: "https://app.example/cb", state: "s" },
        createdAt: at(0),
        expiresAt: at(60),
      };
      await store.oauthPushedRequests.insert(pushed);
      expect(await store.oauthPushedRequests.take(pushed.requestUriHash, other.id, at(1))).toBeNull();
      expect(await store.oauthPushedRequests.take(pushed.requestUriHash, client.id, at(60))).toBeNull();
      expect(await store.oauthPushedRequests.take(pushed.requestUriHash, client.id, at(59))).toEqual(pushed);
      expect(await store.oauthPushedRequests.take(pushed.requestUriHash, client.id, at(1))).toBeNull();
      const raced = { ...pushed, id: newId(), requestUriHash: newHash() };
      await store.oauthPushedRequests.insert(raced);
      const takers = await Promise.all(
        [1, 2, 3].map(() => store.oauthPushedRequests.take(raced.requestUriHash, client.id, at(1))),
      );
      expect(takers.filter((t) => t !== null)).toHaveLength(1);
    });

    it("finds an approved request by its code's hash only, and a code is spent once, on one session", async () => {
      const { store } = harness();
      const client = anOAuthClient();
      await store.oauthClients.insert(client);
      const user = await seedUser(store);
      const pending = anAuthorization(client.id);
      await store.oauthAuthorizations.insert(pending);
      expect(await store.oauthAuthorizations.lockByAuthorizationId(pending.authorizationId)).toEqual(pending);
      const codeHash = newHash();
      const approved = {
        ...pending,
        userId: user.id,
        status: "approved" as const,
        codeHash,
        approvedAt: at(1),
        authTime: at(1),
        // How the user proved who they are where they approved: read back as written.
        authentication: {
          aal: "aal2" as const,
          amr: [
            { method: "totp", timestamp: 1_700_000_030 },
            { method: "password", timestamp: 1_700_000_000 },
          ],
        },
      };
      await store.oauthAuthorizations.update(approved);
      expect(await store.oauthAuthorizations.lockApprovedByCode(codeHash)).toEqual(approved);
      expect(await store.oauthAuthorizations.lockApprovedByCode(newHash())).toBeNull();
      const sessionId = newId();
      expect(await store.oauthAuthorizations.spend(approved.id, sessionId)).toBe(true);
      expect(await store.oauthAuthorizations.spend(approved.id, newId())).toBe(false);
      // Kept, spent: a replay finds the session the first exchange started.
      expect(await store.oauthAuthorizations.lockApprovedByCode(codeHash)).toEqual({
        ...approved,
        sessionId,
      });
    });

    it("of concurrent exchanges of one code in transactions, exactly one spends it, the others see it spent", async () => {
      const { store } = harness();
      const client = anOAuthClient();
      await store.oauthClients.insert(client);
      const user = await seedUser(store);
      const codeHash = newHash();
      await store.oauthAuthorizations.insert(
        anAuthorization(client.id, { userId: user.id, status: "approved", codeHash }),
      );
      const attempts = Array.from({ length: 4 }, () =>
        store.transaction(async (repos) => {
          const found = await repos.oauthAuthorizations.lockApprovedByCode(codeHash);
          if (found === null) return "gone";
          if (found.sessionId) return "spent";
          return (await repos.oauthAuthorizations.spend(found.id, newId())) ? "won" : "lost";
        }),
      );
      expect((await Promise.all(attempts)).sort()).toEqual(["spent", "spent", "spent", "won"]);
    });

    it("stores a device's request once per user code, finds it by user code, locks it by device code", async () => {
      const { store } = harness();
      const client = anOAuthClient();
      await store.oauthClients.insert(client);
      const device = { deviceCodeHash: newHash(), userCodeHash: newHash(), interval: 5, lastPolledAt: null };
      const request = anAuthorization(client.id, { device, codeChallenge: "", state: null, nonce: null });
      expect(await store.oauthAuthorizations.insertDevice(request)).toBe(true);
      const sameUserCode = anAuthorization(client.id, { device: { ...device, deviceCodeHash: newHash() } });
      expect(await store.oauthAuthorizations.insertDevice(sameUserCode)).toBe(false);
      expect(await store.oauthAuthorizations.findByUserCode(device.userCodeHash)).toEqual(request);
      expect(await store.oauthAuthorizations.findByUserCode(newHash())).toBeNull();
      const polled = { ...request, device: { ...device, interval: 10, lastPolledAt: at(5) } };
      await store.oauthAuthorizations.update(polled);
      expect(await store.oauthAuthorizations.lockByDeviceCode(device.deviceCodeHash)).toEqual(polled);
      expect(await store.oauthAuthorizations.lockByDeviceCode(newHash())).toBeNull();
      // A browser's request is no device's.
      expect(await store.oauthAuthorizations.lockByDeviceCode("")).toBeNull();
    });

    it("of concurrent polls of one approved device request, exactly one spends it", async () => {
      const { store } = harness();
      const client = anOAuthClient();
      await store.oauthClients.insert(client);
      const user = await seedUser(store);
      const deviceCodeHash = newHash();
      const device = { deviceCodeHash, userCodeHash: newHash(), interval: 5, lastPolledAt: null };
      await store.oauthAuthorizations.insertDevice(
        anAuthorization(client.id, { userId: user.id, status: "approved", device }),
      );
      const polls = Array.from({ length: 4 }, () =>
        store.transaction(async (repos) => {
          const found = await repos.oauthAuthorizations.lockByDeviceCode(deviceCodeHash);
          if (found === null) return "gone";
          if (found.sessionId) return "spent";
          return (await repos.oauthAuthorizations.spend(found.id, newId())) ? "won" : "lost";
        }),
      );
      expect((await Promise.all(polls)).sort()).toEqual(["spent", "spent", "spent", "won"]);
    });
  });
}
