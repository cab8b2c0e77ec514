import { describe, expect, it } from "vitest";
import type { OAuthClient } from "../../oauth-server/index.js";
import { at, type MakeStore, newId, seedSession, useStore } from "../harness.js";
import { anOAuthClient, clientSession } from "./oauth-fixtures.js";

/** OAuth clients: their fields and keys, metadata document clients, assertion jtis, deletion. */
export function describeOAuthClientStoreContract(name: string, makeStore: MakeStore): void {
  describe(`${name}: OAuth client stores`, () => {
    const harness = useStore(makeStore);

    it("keeps a client whole (a redirect URI may hold a comma), lists the newest first, hides deleted ones", async () => {
      const { store } = harness();
      const older = anOAuthClient({ createdAt: at(1), updatedAt: at(1) });
      const newer = anOAuthClient({
        createdAt: at(2),
        updatedAt: at(2),
        clientType: "public",
        authMethod: "none",
        secretHash: null,
      });
      await store.oauthClients.insert(older);
      await store.oauthClients.insert(newer);
      expect(await store.oauthClients.find(older.id)).toEqual(older);
      expect(await store.oauthClients.find("not-a-uuid")).toBeNull();
      const { clients, total } = await store.oauthClients.list({ offset: 0, limit: 1000 });
      const listed = clients.filter((c) => c.id === older.id || c.id === newer.id);
      expect(listed.map((c) => c.id)).toEqual([newer.id, older.id]);
      expect(total).toBe(clients.length);
      const [, second] = clients;
      expect(await store.oauthClients.list({ offset: 1, limit: 1 })).toEqual({
        clients: second ? [second] : [],
        total,
      });
      expect(await store.oauthClients.update({ ...older, name: "Renamed", updatedAt: at(3) })).toBe(true);
      expect((await store.oauthClients.find(older.id))?.name).toBe("Renamed");
      expect(await store.oauthClients.softDelete(older.id, at(4))).toBe(true);
      expect(await store.oauthClients.find(older.id)).toBeNull();
      expect(await store.oauthClients.softDelete(older.id, at(5))).toBe(false);
      expect(await store.oauthClients.update(older)).toBe(false);
    });

    it("keeps a private_key_jwt client's keys, and a client_secret_jwt client's sealed secret", async () => {
      const { store } = harness();
      const keyed = anOAuthClient({
        authMethod: "private_key_jwt",
        secretHash: null,
        jwks: { keys: [{ kty: "EC", crv: "P-256", x: "x", y: "y", kid: "k1" }] },
        requirePushedAuthorizationRequests: true,
      });
      const sealed = anOAuthClient({ authMethod: "client_secret_jwt", secretSealed: "sealed-secret" });
      const remote = anOAuthClient({
        authMethod: "private_key_jwt",
        secretHash: null,
        jwksUri: "https://keys.example/jwks.json",
      });
      for (const client of [keyed, sealed, remote]) {
        await store.oauthClients.insert(client);
        expect(await store.oauthClients.find(client.id)).toEqual(client);
      }
    });

    it("keeps one live client per metadata document URL, found by it; racing saves make one row", async () => {
      const { store } = harness();
      const url = `https://app.example/${newId()}/client.json`;
      const documented = anOAuthClient({
        registrationType: "dynamic",
        clientType: "public",
        authMethod: "none",
        secretHash: null,
        metadataUrl: url,
        metadataExpiresAt: at(300),
      });
      expect(await store.oauthClients.findByMetadataUrl(url)).toBeNull();
      const racing = await Promise.all(
        [documented, { ...documented, id: newId() }, { ...documented, id: newId() }].map((c) =>
          store.oauthClients.saveMetadataClient(c),
        ),
      );
      const winner = (await store.oauthClients.findByMetadataUrl(url)) as OAuthClient;
      expect(racing.every((c) => c.id === winner.id)).toBe(true);
      expect(await store.oauthClients.find(winner.id)).toEqual(winner);
      // Fetched again: the row's metadata replaced, its id and creation kept.
      const refreshed = {
        ...documented,
        id: newId(),
        name: "Renamed",
        metadataExpiresAt: at(900),
        updatedAt: at(9),
      };
      expect(await store.oauthClients.saveMetadataClient(refreshed)).toEqual({
        ...refreshed,
        id: winner.id,
        createdAt: winner.createdAt,
      });
      // Deleted, the URL is free for a new client.
      expect(await store.oauthClients.softDelete(winner.id, at(10))).toBe(true);
      expect(await store.oauthClients.findByMetadataUrl(url)).toBeNull();
      const again = await store.oauthClients.saveMetadataClient({ ...documented, id: newId() });
      expect(again.id).not.toBe(winner.id);
    });

    it("keeps what an admin allowed a client in token exchange", async () => {
      const { store } = harness();
      const agent = anOAuthClient({
        grantTypes: ["authorization_code", "urn:ietf:params:oauth:grant-type:token-exchange"],
        tokenExchangeAudiences: ["https://api.example/mcp", "billing"],
        tokenExchangeImpersonation: true,
      });
      await store.oauthClients.insert(agent);
      expect(await store.oauthClients.find(agent.id)).toEqual(agent);
      const narrowed = { ...agent, tokenExchangeAudiences: [], tokenExchangeImpersonation: false };
      expect(await store.oauthClients.update(narrowed)).toBe(true);
      expect(await store.oauthClients.find(agent.id)).toEqual(narrowed);
    });

    it("ends a client's sessions when the client is deleted, and no one else's", async () => {
      const { store } = harness();
      const client = anOAuthClient();
      await store.oauthClients.insert(client);
      const ours = await clientSession(store, client.id);
      const firstParty = await seedSession(store);
      expect(await store.sessions.find(ours.session.id)).toMatchObject({
        oauthClientId: client.id,
        scopes: "openid email",
      });
      await store.oauthClients.softDelete(client.id, at(1));
      expect(await store.sessions.find(ours.session.id)).toBeNull();
      expect(await store.sessions.find(firstParty.session.id)).not.toBeNull();
    });

    it("refuses a client assertion's jti a second time until it expires, per client", async () => {
      const { store } = harness();
      const client = anOAuthClient();
      const other = anOAuthClient();
      await store.oauthClients.insert(client);
      await store.oauthClients.insert(other);
      const uses = store.oauthClientAssertions;
      expect(await uses.use(client.id, "jti-1", at(60), at(0))).toBe(true);
      expect(await uses.use(client.id, "jti-1", at(60), at(30))).toBe(false);
      expect(await uses.use(other.id, "jti-1", at(60), at(30))).toBe(true);
      // Remembered until its assertion expired: a late row is taken over.
      expect(await uses.use(client.id, "jti-1", at(200), at(61))).toBe(true);
      const raced = await Promise.all([1, 2, 3].map(() => uses.use(client.id, "jti-2", at(60), at(0))));
      expect(raced.filter(Boolean)).toHaveLength(1);
    });
  });
}
