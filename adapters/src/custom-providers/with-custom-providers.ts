import type { CustomProvider, CustomProviderStore, OidcDiscovery } from "@authsvc/core/custom-providers";
import { discoveryUrlOf } from "@authsvc/core/custom-providers";
import type { ExternalProvider, ExternalProviders, IdTokenVerifier } from "@authsvc/core/external";
import type { Result } from "@authsvc/core/kernel";
import type { SecretBox } from "@authsvc/core/mfa";
import { customExternalProvider } from "./custom-provider.js";

export interface CustomProviderSource {
  /** `CUSTOM_OAUTH_ENABLED`: off, no custom provider signs in. */
  readonly enabled: boolean;
  readonly store: Pick<CustomProviderStore, "find">;
  readonly secretBox: SecretBox;
  /** `<CUSTOM_OAUTH_EXTERNAL_URL>/callback`. */
  readonly redirectUri: string;
  /** The guarded fetch every call to a custom provider goes through. */
  readonly fetch: typeof fetch;
  /** `EXTERNAL_OIDC_PROVIDER_CACHE_TTL`: how long a discovery document is used before it is fetched again. */
  readonly discoveryTtlMs: number;
  readonly discover: (url: string, issuer: string) => Promise<Result<OidcDiscovery, string>>;
  /** Test seams. */
  readonly now?: () => number;
  readonly timeoutMs?: number;
  readonly refetchCooldownMs?: number;
}

interface Built {
  /** The row's id and version the provider was built from. */
  readonly version: string;
  /** When its discovery document was fetched (ms). */
  readonly discoveredAt: number;
  readonly discovery: OidcDiscovery | null;
  readonly provider: ExternalProvider;
  readonly idTokenVerifier: IdTokenVerifier | null;
}

/**
 * The built-in providers plus the admin's: a name `custom:<name>` (lower-cased) is looked up in the
 * database on every use, so a change or deletion counts at once on every instance, and built into a
 * provider (`customExternalProvider`) that is kept while its row is unchanged, so its key set stays
 * cached. An OpenID provider's discovery document is fetched again once older than the cache TTL;
 * when that fails, the last good one is used.
 */
export function withCustomProviders(
  builtIn: ExternalProviders,
  source: CustomProviderSource,
): ExternalProviders {
  const built = new Map<string, Built>();
  const now = source.now ?? Date.now;

  // Concurrent sign-ins with one provider share one build (and one discovery fetch).
  const building = new Map<string, Promise<Built>>();

  async function discovery(row: CustomProvider, previous: Built | undefined) {
    const storedAt = row.discoveryCachedAt?.getTime() ?? 0;
    const known = Math.max(storedAt, previous?.discoveredAt ?? 0);
    const current = previous?.discovery ?? row.discovery;
    if (row.providerType !== "oidc") return { row, at: now() };
    if (now() - known < source.discoveryTtlMs) {
      return { row: { ...row, discovery: current }, at: known };
    }
    const fresh = await source.discover(discoveryUrlOf(row), row.issuer ?? "");
    // A failed fetch is not tried again before the TTL either: a provider that stopped answering
    // must not be called, and waited for, on every sign-in.
    return { row: { ...row, discovery: fresh.ok ? fresh.value : current }, at: now() };
  }

  async function build(row: CustomProvider, version: string, previous: Built | undefined): Promise<Built> {
    const secret = source.secretBox.open(row.id, row.sealedSecret);
    if (secret === null) {
      throw new Error(`${row.identifier}: the client secret does not open with the configured keys`);
    }
    const found = await discovery(row, previous);
    const made = customExternalProvider(found.row, {
      secret,
      redirectUri: source.redirectUri,
      fetch: source.fetch,
      ...(source.timeoutMs === undefined ? {} : { timeoutMs: source.timeoutMs }),
      ...(source.refetchCooldownMs === undefined ? {} : { refetchCooldownMs: source.refetchCooldownMs }),
    });
    return { version, discoveredAt: found.at, discovery: found.row.discovery, ...made };
  }

  async function load(identifier: string): Promise<Built | null> {
    if (!source.enabled) return null;
    const row = await source.store.find(identifier);
    if (row === null || !row.enabled) {
      built.delete(identifier);
      return null;
    }
    const version = `${row.id}:${row.updatedAt.getTime()}`;
    const previous = built.get(identifier);
    const same = previous?.version === version ? previous : undefined;
    if (same && now() - same.discoveredAt < source.discoveryTtlMs) return same;
    const key = `${identifier}@${version}`;
    let pending = building.get(key);
    if (pending === undefined) {
      pending = build(row, version, same);
      building.set(key, pending);
      const done = () => building.delete(key);
      pending.then(done, done);
    }
    const entry = await pending;
    built.set(identifier, entry);
    return entry;
  }

  const custom = (name: string) => name.toLowerCase().startsWith("custom:");
  return {
    provider: async (name) =>
      custom(name) ? ((await load(name.toLowerCase()))?.provider ?? null) : builtIn.provider(name),
    idTokenVerifier: async (name) =>
      custom(name)
        ? ((await load(name.toLowerCase()))?.idTokenVerifier ?? null)
        : builtIn.idTokenVerifier(name),
  };
}
