export { readIdpMetadata } from "./idp-metadata.js";
export { samlMetadataFetcher } from "./metadata-fetcher.js";
export { type SamlSp, type SamlSpOptions, samlServiceProvider } from "./service-provider.js";
export { readSpPrivateKey } from "./sp-key.js";
