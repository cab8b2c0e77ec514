import { describe, expect, it } from "vitest";
import type { OAuthAuthorization, OAuthClient } from "../../oauth-server/index.js";
import type { Repositories } from "../../store.js";
import {
  aSession,
  aToken,
  at,
  type MakeStore,
  newHash,
  newId,
  seedSession,
  seedUser,
  useStore,
} from "../harness.js";

/** A confidential client with unique id; every optional field unset unless given. */
export function anOAuthClient(fields: Partial<OAuthClient> = {}): OAuthClient {
  return {
    id: newId(),
    secretHash: newHash(),
    registrationType: "manual",
    clientType: "confidential",
    authMethod: "client_secret_basic",
    redirectUris: ["https://app.example/cb", "https://app.example/cb?a=1,2"],
    grantTypes: ["authorization_code", "refresh_token"],
    name: "App",
    uri: null,
    logoUri: null,
    jwks: null,
    jwksUri: null,
    secretSealed: null,
    requirePushedAuthorizationRequests: false,
    scope: null,
    tokenExchangeAudiences: [],
    tokenExchangeImpersonation: false,
    createdAt: at(0),
    updatedAt: at(0),
    postLogoutRedirectUris: [],
    backchannelLogoutUri: null,
    backchannelLogoutSessionRequired: false,
    ...fields,
  };
}

/** A pending request of `clientId`, expiring at `at(600)`. */
export function anAuthorization(
  clientId: string,
  fields: Partial<OAuthAuthorization> = {},
): OAuthAuthorization {
  return {
    id: newId(),
    authorizationId: newId().replaceAll("-", ""),
    clientId,
    userId: null,
    redirectUri: "https://app.example/cb",
    scope: "openid email",
    state: "s",
    resource: null,
    codeChallenge: "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM",
    codeChallengeMethod: "s256",
    nonce: "n",
    status: "pending",
    codeHash: null,
    createdAt: at(0),
    expiresAt: at(600),
    approvedAt: null,
    authTime: null,
    sessionId: null,
    ...fields,
  };
}

/** An OAuth session of the client for a new user, with its first refresh token. */
async function clientSession(store: Repositories, clientId: string) {
  const seeded = await seedSession(store, { oauthClientId: clientId, scopes: "openid email" });
  const token = await store.sessions.insertToken(aToken(seeded.session));
  return { ...seeded, token };
}

/** The OAuth server's stores: clients, authorization requests (single-use codes), consents. */
export function describeOAuthStoreContract(name: string, makeStore: MakeStore): void {
  describe(`${name}: OAuth server stores`, () => {
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
