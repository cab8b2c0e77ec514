import { externalProviders, type ProviderSettings } from "@authsvc/adapters";
import type { ExternalProviders } from "@authsvc/core/external";
import type { Config } from "../../config/types.js";
import { EXTERNAL_PROVIDERS } from "./section.js";

/** Test seams: shorter provider timeouts, and key refetches without the production cooldown. */
export interface ExternalProviderOptions {
  readonly timeoutMs?: number;
  readonly refetchCooldownMs?: number;
}

/**
 * The enabled external providers (`EXTERNAL_<P>_ENABLED=true`) built from their settings: client ids
 * (comma-separated, the first signs in), secret, redirect URI (default `<API_EXTERNAL_URL>/callback`)
 * and base URL. A disabled provider is absent, so the port answers `null` for it.
 */
export function externalProvidersOf(
  config: Config,
  options: ExternalProviderOptions = {},
): ExternalProviders {
  const enabled: Partial<Record<(typeof EXTERNAL_PROVIDERS)[number], ProviderSettings>> = {};
  for (const id of EXTERNAL_PROVIDERS) {
    const p = config.external[id];
    if (!p.enabled) continue;
    enabled[id] = {
      clientIds: p.clientId
        .split(",")
        .map((c) => c.trim())
        .filter((c) => c !== ""),
      secret: p.secret,
      redirectUri: p.redirectUri ?? `${config.api.externalUrl.replace(/\/+$/, "")}/callback`,
      url: p.url,
      ...options,
    };
  }
  return externalProviders(enabled);
}
