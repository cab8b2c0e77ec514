import { err, ok } from "../../kernel/index.js";
import type {
  MetadataFetcher,
  RelayState,
  RelayStateStore,
  SamlServiceProvider,
  SsoProvider,
  SsoProviderStore,
} from "../../sso/index.js";

/** Providers in a map; the unique keys checked as the tables' indexes do. */
export function fakeSsoProviders(): SsoProviderStore {
  const rows = new Map<string, SsoProvider>();
  const find = (test: (p: SsoProvider) => boolean) => [...rows.values()].find(test) ?? null;
  return {
    list: async (f) =>
      [...rows.values()].filter(
        (p) =>
          (f.resourceId === undefined || p.resourceId?.toLowerCase() === f.resourceId.toLowerCase()) &&
          (f.resourceIdPrefix === undefined || (p.resourceId ?? "").startsWith(f.resourceIdPrefix)),
      ),
    findById: async (id) => rows.get(id) ?? null,
    findByResourceId: async (r) => find((p) => p.resourceId?.toLowerCase() === r.toLowerCase()),
    findByDomain: async (d) => find((p) => p.domains.includes(d.toLowerCase())),
    findByEntityId: async (e) => find((p) => p.entityId === e),
    async save(provider, mode) {
      if (mode === "update" && !rows.has(provider.id)) return "not_found";
      const others = [...rows.values()].filter((p) => p.id !== provider.id);
      if (others.some((p) => p.entityId === provider.entityId)) return { clash: "entity_id" };
      const taken = provider.domains.find((d) => others.some((p) => p.domains.includes(d)));
      if (taken !== undefined) return { clash: "domain", domain: taken };
      const resource = provider.resourceId?.toLowerCase();
      if (resource && others.some((p) => p.resourceId?.toLowerCase() === resource))
        return { clash: "resource_id" };
      rows.set(provider.id, provider);
      return "saved";
    },
    delete: async (id) => rows.delete(id),
  };
}

/** Relay states in a map, taken once. */
export function fakeRelayStates(): RelayStateStore {
  const rows = new Map<string, RelayState>();
  return {
    create: async (state) => void rows.set(state.id, state),
    async consume(id) {
      const state = rows.get(id) ?? null;
      rows.delete(id);
      return state;
    },
  };
}

/**
 * A service provider whose "metadata" is `<EntityDescriptor entityID="…">` and whose "responses" are
 * JSON `{issuer, id, nameId, inResponseTo, until, sessionUntil?}`, accepted when the issuer is the provider's.
 */
export function fakeSaml(): SamlServiceProvider {
  const read = (response: string) => {
    try {
      return JSON.parse(response) as {
        issuer: string;
        id: string;
        nameId: string;
        inResponseTo?: string;
        until: string;
        sessionUntil?: string;
      };
    } catch {
      return null;
    }
  };
  return {
    rotating: false,
    metadata: async () => '<EntityDescriptor entityID="http://localhost:9999/sso/saml/metadata"/>',
    readMetadata(xml) {
      const entityId = /entityID="([^"]+)"/.exec(xml)?.[1];
      return entityId
        ? ok({ entityId, validUntil: null })
        : err("SAML Metadata does not contain an EntityID");
    },
    authnRequest: async (provider, relayState) => ({
      url: `https://idp.example/sso?entity=${encodeURIComponent(provider.entityId)}&RelayState=${relayState}`,
      requestId: `_request-${relayState}`,
    }),
    issuerOf: (response) => read(response)?.issuer ?? null,
    async verify({ samlResponse, provider, inResponseTo }) {
      const r = read(samlResponse);
      if (r === null || r.issuer !== provider.entityId) return err("Invalid signature");
      if (inResponseTo !== null && r.inResponseTo !== inResponseTo) return err("InResponseTo is not valid");
      const email = "urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress";
      return ok({
        id: r.id,
        notOnOrAfter: new Date(r.until),
        sessionNotOnOrAfter: r.sessionUntil ? new Date(r.sessionUntil) : null,
        nameId: r.nameId,
        nameIdFormat: email,
        attributes: {},
      });
    },
  };
}

/** A fetcher that knows one document per URL. */
export function fakeMetadataFetcher(documents: Record<string, string> = {}): MetadataFetcher {
  return {
    fetch: async (url) => (documents[url] !== undefined ? ok(documents[url]) : err("HTTP 404")),
  };
}
