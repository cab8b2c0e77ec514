/** SSO: SAML 2.0 single sign-on with registered identity providers. */
export * from "./accept-saml-response.js";
export type * from "./admin-input.js";
export * from "./admin-providers.js";
export * from "./attributes.js";
export * from "./failures.js";
export type * from "./ports/saml.js";
export type * from "./ports/sso-providers.js";
export * from "./provider.js";
export type * from "./settings.js";
export * from "./sp-metadata.js";
export * from "./start-sso.js";
export * from "./steps/sso-account.js";
