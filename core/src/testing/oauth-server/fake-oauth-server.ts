import type {
  ClientAssertionVerifier,
  ClientJwks,
  IdTokenSigner,
  OAuthAuthorization,
  OAuthAuthorizationStore,
  OAuthClient,
  OAuthClientAssertionStore,
  OAuthClientStore,
  OAuthConsent,
  OAuthConsentStore,
  OAuthPushedRequest,
  OAuthPushedRequestStore,
  OAuthScope,
  OAuthScopeStore,
} from "../../oauth-server/index.js";
import type { FakeTables } from "../fake-tables.js";

/** The OAuth server's in-memory tables (kept apart from `FakeTables`, which they extend). */
export interface FakeOAuthTables {
  readonly clients: Map<string, OAuthClient & { deletedAt: Date | null }>;
  readonly authorizations: Map<string, OAuthAuthorization>;
  readonly consents: Map<string, OAuthConsent>;
  readonly pushedRequests: Map<string, OAuthPushedRequest>;
  /** `<client id>/<jti>` → until when it is remembered. */
  readonly assertionJtis: Map<string, Date>;
  readonly scopes: Map<string, OAuthScope>;
}

export function emptyOAuthTables(): FakeOAuthTables {
  return {
    clients: new Map(),
    authorizations: new Map(),
    consents: new Map(),
    pushedRequests: new Map(),
    assertionJtis: new Map(),
    scopes: new Map(),
  };
}

/** In-memory pushed requests; taking one is synchronous, so of two takers exactly one gets it. */
export function fakeOAuthPushedRequests(o: FakeOAuthTables): OAuthPushedRequestStore {
  return {
    insert: async (r) => void o.pushedRequests.set(r.id, r),
    take: async (hash, clientId, now) => {
      const found = [...o.pushedRequests.values()].find(
        (r) => r.requestUriHash === hash && r.clientId === clientId && r.expiresAt > now,
      );
      if (found === undefined) return null;
      o.pushedRequests.delete(found.id);
      return found;
    },
  };
}

/** In-memory used assertion `jti`s. */
export function fakeOAuthClientAssertions(o: FakeOAuthTables): OAuthClientAssertionStore {
  return {
    use: async (clientId, jti, expiresAt, now) => {
      const key = `${clientId}/${jti}`;
      const until = o.assertionJtis.get(key);
      if (until !== undefined && until > now) return false;
      o.assertionJtis.set(key, expiresAt);
      return true;
    },
  };
}

/**
 * A client assertion of the fake verifier: `fake.` and the JSON of its header, its claims and what
 * it is signed with — `secret:<the secret>` (HMAC), or `key:<kid>` (a public key of the client's
 * `jwks`, or of the key set `remote` serves at its `jwks_uri`).
 */
export function fakeAssertion(
  header: Record<string, unknown>,
  claims: Record<string, unknown>,
  signedWith: string,
): string {
  return `fake.${JSON.stringify({ header, claims, signedWith })}`;
}

/** The fake `ClientAssertionVerifier`: `remote` holds what each `jwks_uri` serves. */
export function fakeClientAssertions(
  remote: Map<string, ClientJwks> = new Map(),
): ClientAssertionVerifier & { remote: Map<string, ClientJwks> } {
  const read = (assertion: string) => {
    if (!assertion.startsWith("fake.")) return null;
    try {
      return JSON.parse(assertion.slice(5)) as {
        header: Record<string, unknown>;
        claims: Record<string, unknown>;
        signedWith: string;
      };
    } catch {
      return null;
    }
  };
  return {
    remote,
    decode: (assertion) => {
      const found = read(assertion);
      return found === null ? null : { header: found.header, claims: found.claims };
    },
    verify: async (assertion, keys, algorithms) => {
      const found = read(assertion);
      if (found === null) return { ok: false, reason: "not a JWS" };
      if (!algorithms.includes(String(found.header.alg))) return { ok: false, reason: "algorithm refused" };
      if (keys.kind === "secret")
        return found.signedWith === `secret:${keys.secret}`
          ? { ok: true, claims: found.claims }
          : { ok: false, reason: "bad signature" };
      const set = keys.jwks ?? (keys.jwksUri ? remote.get(keys.jwksUri) : undefined);
      const kids = (set?.keys ?? []).map((k) => `key:${String(k.kid)}`);
      return kids.includes(found.signedWith) && found.header.kid === found.signedWith.slice(4)
        ? { ok: true, claims: found.claims }
        : { ok: false, reason: "no key verifies" };
    },
  };
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
    findByMetadataUrl: async (url) =>
      [...o.clients.values()].map(live).find((c) => c !== null && c.metadataUrl === url) ?? null,
    saveMetadataClient: async (client) => {
      const found = [...o.clients.values()]
        .map(live)
        .find((c) => c !== null && c.metadataUrl === client.metadataUrl);
      const saved = found ? { ...client, id: found.id, createdAt: found.createdAt } : client;
      o.clients.set(saved.id, { ...saved, deletedAt: null });
      return saved;
    },
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
    insertDevice: async (a) => {
      const taken = all().some((b) => b.device?.userCodeHash === a.device?.userCodeHash);
      if (!taken) o.authorizations.set(a.id, a);
      return !taken;
    },
    findByUserCode: async (hash) => all().find((a) => a.device?.userCodeHash === hash) ?? null,
    lockByDeviceCode: async (hash) => all().find((a) => a.device?.deviceCodeHash === hash) ?? null,
  };
}

/** In-memory custom scopes, by name. */
export function fakeOAuthScopes(o: FakeOAuthTables): OAuthScopeStore {
  return {
    insert: async (scope) => {
      if (o.scopes.has(scope.scope)) return false;
      o.scopes.set(scope.scope, scope);
      return true;
    },
    list: async () => [...o.scopes.values()].sort((a, b) => a.scope.localeCompare(b.scope)),
    find: async (names) => names.flatMap((name) => o.scopes.get(name) ?? []),
    delete: async (scope) => o.scopes.delete(scope),
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
    async sign(claims, options) {
      if (!available) throw new Error("no asymmetric signing key");
      signed.push({ ...claims, ...(options?.type ? { typ: options.type } : {}) });
      return `jwt.${JSON.stringify(claims)}`;
    },
    // A token it signed (an ID token, not a logout token), expired or not.
    async verifyOwn(token) {
      if (!token.startsWith("jwt.")) return null;
      const text = token.slice(4);
      const match = signed.find((claims) => JSON.stringify(claims) === text);
      return match === undefined ? null : match;
    },
  };
}
