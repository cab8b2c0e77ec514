/** Custom OAuth 2.0 / OpenID Connect providers that an admin adds at runtime. */
export {
  type CustomProvider,
  type CustomProviderType,
  discoveryUrlOf,
  type OidcDiscovery,
} from "./custom-provider.js";
export type * from "./fields.js";
export * from "./manage-custom-providers.js";
export type { CustomProviderStore } from "./ports/custom-provider-store.js";
export { customProviderStoreTraits } from "./ports/custom-provider-store.js";
export type * from "./ports/provider-endpoints.js";
export { PROTECTED_MAPPING_TARGETS } from "./rules.js";
export type { CustomProvidersSliceSettings } from "./settings.js";
