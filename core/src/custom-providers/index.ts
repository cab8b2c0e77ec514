/** Custom OAuth 2.0 / OpenID Connect providers that an admin adds at runtime. */
export * from "./custom-provider.js";
export type * from "./fields.js";
export * from "./manage-custom-providers.js";
export type * from "./ports/custom-provider-store.js";
export { customProviderStoreTraits } from "./ports/custom-provider-store.js";
export type * from "./ports/provider-endpoints.js";
export { PROTECTED_MAPPING_TARGETS, RESERVED_AUTHORIZATION_PARAMS } from "./rules.js";
export type * from "./settings.js";
