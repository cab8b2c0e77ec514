import { guardedFetch, providerEndpoints, withCustomProviders } from "@authsvc/adapters";
import type { AuthDeps } from "@authsvc/core";
import { secretBoxOf } from "../../infrastructure/jwt/crypto.js";
import { externalProvidersOf } from "../external/external-providers.js";
import type { WiringContext } from "../module.js";
import { customCallbackOf } from "./section.js";

/**
 * The custom providers' ports: the URL checks and discovery the admin API uses, and the external
 * providers port with the admin's providers beside the configured ones. It replaces the external
 * module's `providers` (the modules' ports merge in the list's order, and this module comes after it).
 * Every call to a custom provider goes through one guarded fetch (adapters/src/net).
 */
export function customProviderPortsOf(ctx: WiringContext): Pick<AuthDeps, "providers" | "providerEndpoints"> {
  const { config, shared } = ctx;
  const settings = config.customProviders;
  const policy = { allowLoopbackForTests: settings.allowLoopbackForTests };
  const fetch = guardedFetch(policy);
  const endpoints = providerEndpoints(policy, fetch);
  return {
    providerEndpoints: endpoints,
    providers: withCustomProviders(externalProvidersOf(config), {
      enabled: settings.enabled,
      store: shared.store.customProviders,
      // The MFA secrets' box: `SECURITY_DB_ENCRYPTION_*` keys, else the key derived from JWT_SECRET.
      secretBox: secretBoxOf(config),
      redirectUri: customCallbackOf(config),
      fetch,
      discoveryTtlMs: settings.discoveryCacheTtlMs,
      discover: endpoints.discover,
    }),
  };
}
