/** Custom OAuth 2.0 / OpenID Connect providers: built from their database rows, reached through the guarded fetch. */
export { customPerson } from "./custom-claims.js";
export { type CustomProviderCalls, customExternalProvider } from "./custom-provider.js";
export { DISCOVERY_TIMEOUT_MS, discoverOidc } from "./discovery.js";
export { providerEndpoints } from "./provider-endpoints.js";
export { type CustomProviderSource, withCustomProviders } from "./with-custom-providers.js";
