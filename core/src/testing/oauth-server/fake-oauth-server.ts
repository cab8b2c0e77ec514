import type {
  IdTokenSigner,
  OAuthAuthorization,
  OAuthAuthorizationStore,
  OAuthClient,
  OAuthClientStore,
  OAuthConsent,
  OAuthConsentStore,
} from "../../oauth-server/index.js";
import type { FakeTables } from "../fake-tables.js";

/** The OAuth server's in-memory tables (kept apart from `FakeTables`, which they extend). */
export interface FakeOAuthTables {
  readonly clients: Map<string, OAuthClient & { deletedAt: Date | null }>;
  readonly authorizations: Map<string, OAuthAuthorization>;
  readonly consents: Map<string, OAuthConsent>;
}

export function emptyOAuthTables(): FakeOAuthTables {
  return { clients: new Map(), authorizations: new Map(), consents: new Map() };
}

const live = (client: (OAuthClient & { deletedAt: Date | null }) | undefined): OAuthClient | null => {
  if (client === undefined || client.deletedAt !== null) return null;
  const { deletedAt: _deleted, ...rest } = client;
  return rest;
};

/** In-memory clients; a deletion also ends the client's sessions, as the foreign key's cascade would. */
export function fakeOAuthClients(o: FakeOAuthTables, t: FakeTables): OAuthClientStore {
  return {
    insert: async (client) => void o.clients.set(client.id, { ...client, deletedAt: null }),
    find: async (id) => live(o.clients.get(id)),
    list: async ({ offset, limit }) => {
      const all = [...o.clients.values()]
        .map(live)
        .filter((c): c is OAuthClient => c !== null)
        .sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime());
      return { clients: all.slice(offset, offset + limit), total: all.length };
    },
    update: async (client) => {
      if (live(o.clients.get(client.id)) === null) return false;
      o.clients.set(client.id, { ...client, deletedAt: null });
      return true;
    },
    softDelete: async (id, at) => {
      const found = o.clients.get(id);
      if (live(found) === null || found === undefined) return false;
      o.clients.set(id, { ...found, deletedAt: at });
      endSessions(t, (s) => s.oauthClientId === id);
      return true;
    },
  };
}

function endSessions(t: FakeTables, which: (s: { userId: string; oauthClientId?: string }) => boolean): void {
  for (const session of [...t.sessions.values()]) {
    if (!which(session)) continue;
    t.sessions.delete(session.id);
    for (const token of [...t.tokens.values()]) if (token.sessionId === session.id) t.tokens.delete(token.id);
  }
}

/** In-memory requests; spending is synchronous, so of two spenders of one code exactly one wins. */
export function fakeOAuthAuthorizations(o: FakeOAuthTables): OAuthAuthorizationStore {
  const all = () => [...o.authorizations.values()];
  return {
    insert: async (a) => void o.authorizations.set(a.id, a),
    lockByAuthorizationId: async (id) => all().find((a) => a.authorizationId === id) ?? null,
    lockApprovedByCode: async (hash) =>
      all().find((a) => a.status === "approved" && a.codeHash === hash) ?? null,
    update: async (a) => void o.authorizations.set(a.id, a),
    spend: async (id, sessionId) => {
      const found = o.authorizations.get(id);
      if (found === undefined || (found.sessionId ?? null) !== null) return false;
      o.authorizations.set(id, { ...found, sessionId });
      return true;
    },
  };
}

/** In-memory consents, one per (user, client). */
export function fakeOAuthConsents(o: FakeOAuthTables, t: FakeTables): OAuthConsentStore {
  const key = (userId: string, clientId: string) => `${userId}/${clientId}`;
  return {
    findActive: async (userId, clientId) => {
      const found = o.consents.get(key(userId, clientId));
      return found && found.revokedAt === null ? found : null;
    },
    approve: async (consent) => {
      const k = key(consent.userId, consent.clientId);
      const found = o.consents.get(k);
      const kept = found && found.revokedAt === null ? found.scopes.split(" ") : [];
      const scopes = [...new Set([...kept, ...consent.scopes.split(" ")])].filter(Boolean).join(" ");
      const keptResources = found && found.revokedAt === null ? found.resources : [];
      const resources = [...new Set([...keptResources, ...consent.resources])];
      o.consents.set(k, { ...consent, id: found?.id ?? consent.id, scopes, resources, revokedAt: null });
    },
    listActive: async (userId) =>
      [...o.consents.values()]
        .filter((c) => c.userId === userId && c.revokedAt === null)
        .flatMap((consent) => {
          const client = live(o.clients.get(consent.clientId));
          return client === null ? [] : [{ client, consent }];
        })
        .sort((a, b) => b.consent.grantedAt.getTime() - a.consent.grantedAt.getTime()),
    revoke: async (userId, clientId, at) => {
      const found = o.consents.get(key(userId, clientId));
      if (!found || found.revokedAt !== null) return false;
      o.consents.set(key(userId, clientId), { ...found, revokedAt: at });
      endSessions(t, (s) => s.userId === userId && s.oauthClientId === clientId);
      return true;
    },
  };
}

/**
 * An ID token signer for tests, when `available`: tokens in the fake access-token signer's format
 * (`jwt.<claims as JSON>`), because the real one signs with the same key, so that the access-token
 * verifier accepts them too and only their kind tells them apart.
 */
export function fakeIdTokens(available = true): IdTokenSigner & { signed: Record<string, unknown>[] } {
  const signed: Record<string, unknown>[] = [];
  return {
    available,
    signed,
    async sign(claims) {
      if (!available) throw new Error("no asymmetric signing key");
      signed.push({ ...claims });
      return `jwt.${JSON.stringify(claims)}`;
    },
  };
}
