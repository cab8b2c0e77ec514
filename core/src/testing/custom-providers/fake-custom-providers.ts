import type { CustomProvider, CustomProviderStore, ProviderEndpoints } from "../../custom-providers/index.js";
import { ok } from "../../kernel/index.js";

/** An in-memory `CustomProviderStore` over `rows`, keyed by id. */
export function fakeCustomProviders(rows: Map<string, CustomProvider> = new Map()): CustomProviderStore {
  const byIdentifier = (identifier: string) =>
    [...rows.values()].find((p) => p.identifier === identifier) ?? null;
  return {
    list: async (type) =>
      [...rows.values()]
        .filter((p) => type === undefined || p.providerType === type)
        .sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime()),
    find: async (identifier) => byIdentifier(identifier),
    count: async () => rows.size,
    async create(provider, maxProviders) {
      if (byIdentifier(provider.identifier) !== null) return "duplicate";
      if (maxProviders > 0 && rows.size >= maxProviders) return "over_quota";
      rows.set(provider.id, provider);
      return "created";
    },
    async update(provider) {
      if (!rows.has(provider.id)) return false;
      rows.set(provider.id, provider);
      return true;
    },
    async delete(identifier) {
      const found = byIdentifier(identifier);
      return found !== null && rows.delete(found.id);
    },
  };
}

/**
 * `ProviderEndpoints` that refuse any URL not on `https://` or on a host named `private.*`, and
 * answer discovery with a document for the issuer asked about (or the `refusal` given).
 */
export function fakeProviderEndpoints(
  options: { readonly discoveryRefusal?: string } = {},
): ProviderEndpoints {
  return {
    refusal: async (url) =>
      !url.startsWith("https://")
        ? "only https URLs are allowed"
        : url.startsWith("https://private.")
          ? "resolves to a private address"
          : null,
    async discover(_url, issuer) {
      if (options.discoveryRefusal) return { ok: false, error: options.discoveryRefusal };
      const base = issuer.replace(/\/+$/, "");
      return ok({
        issuer,
        authorization_endpoint: `${base}/authorize`,
        token_endpoint: `${base}/token`,
        jwks_uri: `${base}/jwks`,
        userinfo_endpoint: `${base}/userinfo`,
      });
    },
  };
}
