export { type BuiltProvider, externalProvider, externalProviders } from "./external-providers.js";
export { ID_TOKEN_ALGORITHMS } from "./id-token.js";
export { PROVIDER_TIMEOUT_MS } from "./provider-call.js";
export type { ProviderSettings } from "./provider-spec.js";
export { PROVIDER_DEFINITIONS, PROVIDER_NAMES, type ProviderName } from "./providers/index.js";
