/** SSO: SAML 2.0 single sign-on with registered identity providers. */
export { acceptSamlResponse, SAML_ASSERTION_MEMORY_SECONDS } from "./accept-saml-response.js";
export * from "./admin-providers.js";
export { userIdOf } from "./attributes.js";
export * from "./failures.js";
export type { AuthnRequest, MetadataFetcher, SamlServiceProvider } from "./ports/saml.js";
export type * from "./ports/sso-providers.js";
export type {
  AttributeMapping,
  AttributeRule,
  IdpMetadata,
  RelayState,
  SamlAssertion,
  SsoProvider,
} from "./provider.js";
export type * from "./settings.js";
export * from "./sp-metadata.js";
export { startSso } from "./start-sso.js";
