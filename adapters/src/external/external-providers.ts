import type { ExternalProvider, ExternalProviders, IdTokenVerifier } from "@authsvc/core/external";
import { idTokens } from "./id-token.js";
import { oauthProvider } from "./oauth-client.js";
import { PROVIDER_TIMEOUT_MS } from "./provider-call.js";
import type { ProviderSettings } from "./provider-spec.js";
import { PROVIDER_DEFINITIONS, type ProviderName } from "./providers/index.js";

/** One configured provider: its OAuth client, and its ID-token verifier when it is an OpenID provider. */
export interface BuiltProvider {
  readonly provider: ExternalProvider;
  readonly idTokenVerifier: IdTokenVerifier | null;
}

/** Builds one provider from its settings; throws on a setting it cannot work without (Keycloak's URL). */
export function externalProvider(name: ProviderName, settings: ProviderSettings): BuiltProvider {
  const spec = PROVIDER_DEFINITIONS[name](settings.url);
  const verifier = spec.idToken
    ? idTokens(name, spec.idToken, {
        audiences: settings.clientIds,
        timeoutMs: settings.timeoutMs ?? PROVIDER_TIMEOUT_MS,
        ...(settings.fetch ? { fetch: settings.fetch } : {}),
        ...(settings.refetchCooldownMs === undefined
          ? {}
          : { refetchCooldownMs: settings.refetchCooldownMs }),
      })
    : null;
  return {
    provider: oauthProvider(name, spec, settings, verifier),
    idTokenVerifier: verifier && spec.idToken?.grant !== false ? verifier : null,
  };
}

/** The enabled providers (those given settings) behind the core's `ExternalProviders` port. */
export function externalProviders(
  enabled: Partial<Record<ProviderName, ProviderSettings>>,
): ExternalProviders {
  const built = new Map<string, BuiltProvider>();
  for (const [name, settings] of Object.entries(enabled) as [ProviderName, ProviderSettings | undefined][]) {
    if (settings) built.set(name, externalProvider(name, settings));
  }
  return {
    provider: async (name) => built.get(name)?.provider ?? null,
    idTokenVerifier: async (name) => built.get(name)?.idTokenVerifier ?? null,
  };
}
