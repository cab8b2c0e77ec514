import { describe, expect, it } from "vitest";
import { aSession, aToken, at, type MakeStore, newHash, newId, seedSession, useStore } from "../harness.js";
import { anOAuthClient, clientSession } from "./oauth-fixtures.js";

/** OAuth consents, and the refresh of the sessions they gave a client. */
export function describeOAuthConsentStoreContract(name: string, makeStore: MakeStore): void {
  describe(`${name}: OAuth consents and client sessions`, () => {
    const harness = useStore(makeStore);

    it("keeps one consent per user and client, widened by a new approval, revoked with the client's sessions", async () => {
      const { store } = harness();
      const client = anOAuthClient();
      const other = anOAuthClient();
      await store.oauthClients.insert(client);
      await store.oauthClients.insert(other);
      const { user, session } = await clientSession(store, client.id);
      await store.sessions.create(aSession(user));
      await store.oauthConsents.approve({
        id: newId(),
        userId: user.id,
        clientId: client.id,
        scopes: "email",
        resources: [],
        grantedAt: at(1),
        revokedAt: null,
      });
      await store.oauthConsents.approve({
        id: newId(),
        userId: user.id,
        clientId: client.id,
        scopes: "openid profile",
        resources: [],
        grantedAt: at(2),
        revokedAt: null,
      });
      await store.oauthConsents.approve({
        id: newId(),
        userId: user.id,
        clientId: other.id,
        scopes: "email",
        resources: [],
        grantedAt: at(3),
        revokedAt: null,
      });
      // A narrower grant takes nothing back.
      await store.oauthConsents.approve({
        id: newId(),
        userId: user.id,
        clientId: client.id,
        scopes: "profile",
        resources: [],
        grantedAt: at(2),
        revokedAt: null,
      });
      expect(await store.oauthConsents.findActive(user.id, client.id)).toMatchObject({
        scopes: "email openid profile",
        grantedAt: at(2),
      });
      const listed = await store.oauthConsents.listActive(user.id);
      expect(listed.map((g) => [g.client.id, g.consent.scopes])).toEqual([
        [other.id, "email"],
        [client.id, "email openid profile"],
      ]);
      expect(await store.oauthConsents.revoke(user.id, client.id, at(4))).toBe(true);
      expect(await store.oauthConsents.revoke(user.id, client.id, at(5))).toBe(false);
      expect(await store.oauthConsents.findActive(user.id, client.id)).toBeNull();
      expect(await store.sessions.find(session.id)).toBeNull();
      expect((await store.sessions.listForUser(user.id)).map((s) => s.oauthClientId)).toEqual([undefined]);
      // After a revocation, a new grant starts over.
      await store.oauthConsents.approve({
        id: newId(),
        userId: user.id,
        clientId: client.id,
        scopes: "phone",
        resources: [],
        grantedAt: at(5),
        revokedAt: null,
      });
      expect(await store.oauthConsents.findActive(user.id, client.id)).toMatchObject({ scopes: "phone" });
      await store.oauthConsents.revoke(user.id, client.id, at(5));
      await store.oauthClients.softDelete(other.id, at(6));
      expect(await store.oauthConsents.listActive(user.id)).toEqual([]);
    });

    it("keeps the resources a consent was given for, widened by a new approval, started over after a revocation", async () => {
      const { store } = harness();
      const client = anOAuthClient();
      await store.oauthClients.insert(client);
      const { user } = await clientSession(store, client.id);
      const approve = (resources: string[], n: number) =>
        store.oauthConsents.approve({
          id: newId(),
          userId: user.id,
          clientId: client.id,
          scopes: "openid",
          resources,
          grantedAt: at(n),
          revokedAt: null,
        });
      await approve([], 1);
      expect(await store.oauthConsents.findActive(user.id, client.id)).toMatchObject({ resources: [] });
      await approve(["https://files.example/mcp"], 2);
      await approve(["https://mail.example/mcp", "https://files.example/mcp"], 3);
      await approve([], 4);
      expect(await store.oauthConsents.findActive(user.id, client.id)).toMatchObject({
        resources: ["https://files.example/mcp", "https://mail.example/mcp"],
      });
      const [listed] = await store.oauthConsents.listActive(user.id);
      expect(listed?.consent.resources).toEqual(["https://files.example/mcp", "https://mail.example/mcp"]);
      await store.oauthConsents.revoke(user.id, client.id, at(5));
      await approve(["https://calendar.example/mcp"], 6);
      expect(await store.oauthConsents.findActive(user.id, client.id)).toMatchObject({
        resources: ["https://calendar.example/mcp"],
      });
    });

    it("refreshes a client's session for that client only, and a first-party session for none", async () => {
      const { store } = harness();
      const client = anOAuthClient();
      await store.oauthClients.insert(client);
      const ours = await clientSession(store, client.id);
      const limits = { timeboxMs: 0, inactivityTimeoutMs: 0, singlePerUser: false };
      const grant = (tokenHash: string, clientId?: string) =>
        store.sessions.grantRefresh({
          tokenHash,
          childHash: newHash(),
          now: at(10),
          rotationEnabled: true,
          reuseIntervalMs: 0,
          limits,
          clientId,
        });
      expect(await grant(ours.token.tokenHash)).toEqual({ kind: "client_required" });
      expect(await grant(ours.token.tokenHash, newId())).toEqual({ kind: "client_required" });
      const rotated = await grant(ours.token.tokenHash, client.id);
      expect(rotated).toMatchObject({
        kind: "rotated",
        session: { oauthClientId: client.id, scopes: "openid email" },
      });
      const plain = await seedSession(store);
      const plainToken = await store.sessions.insertToken(aToken(plain.session));
      expect(await grant(plainToken.tokenHash, client.id)).toEqual({ kind: "client_not_allowed" });
      expect(await store.sessions.activeToken(plain.session.id)).toMatchObject({ id: plainToken.id });
    });

    it("refreshes a DPoP-bound session with a proof of its key only, writing nothing otherwise", async () => {
      const { store } = harness();
      const client = anOAuthClient();
      await store.oauthClients.insert(client);
      const seeded = await seedSession(store, {
        oauthClientId: client.id,
        scopes: "email",
        dpopJkt: "key-1",
      });
      const token = await store.sessions.insertToken(aToken(seeded.session));
      expect(await store.sessions.find(seeded.session.id)).toMatchObject({ dpopJkt: "key-1" });
      const limits = { timeboxMs: 0, inactivityTimeoutMs: 0, singlePerUser: false };
      const grant = (dpopJkt?: string) =>
        store.sessions.grantRefresh({
          tokenHash: token.tokenHash,
          childHash: newHash(),
          now: at(10),
          rotationEnabled: true,
          reuseIntervalMs: 0,
          limits,
          clientId: client.id,
          dpopJkt,
        });
      expect(await grant()).toEqual({ kind: "dpop_key_mismatch" });
      expect(await grant("key-2")).toEqual({ kind: "dpop_key_mismatch" });
      expect(await store.sessions.activeToken(seeded.session.id)).toMatchObject({ id: token.id });
      expect(await grant("key-1")).toMatchObject({ kind: "rotated", session: { dpopJkt: "key-1" } });
    });
  });
}
