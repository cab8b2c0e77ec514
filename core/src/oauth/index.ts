/** External sign-in: OAuth 2.0 / OpenID Connect providers, flow state and PKCE, ID tokens, identity linking. */
export type * from "./ports/external-provider.js";
