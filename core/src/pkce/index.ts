/** PKCE: flow states that hand a session over by a one-time code and the client's code verifier. */
export { type ExchangedSession, exchangeAuthCode, pkceGrant } from "./exchange-auth-code.js";
export * from "./flow-state.js";
export type * from "./ports/flow-state-store.js";
export * from "./steps/flow-steps.js";
export * from "./verifier.js";
