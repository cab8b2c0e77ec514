/** The OAuth 2.1 / OpenID Connect server: clients, authorization requests, consents and their tokens. */
export * from "./authorization.js";
export * from "./authorize.js";
export * from "./client.js";
export * from "./client-auth.js";
export * from "./clients.js";
export * from "./consent.js";
export * from "./grants.js";
export * from "./id-token.js";
export type * from "./ports/id-token-signer.js";
export type * from "./ports/oauth-store.js";
export * from "./query.js";
export type * from "./settings.js";
export * from "./token-grants.js";
export * from "./token-introspection.js";
