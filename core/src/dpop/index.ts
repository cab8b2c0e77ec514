/** DPoP (RFC 9449): proofs of possession of a key, and the tokens bound to it. */
export * from "./failures.js";
export * from "./ports/dpop.js";
export * from "./proof.js";
export type { DpopSettings } from "./settings.js";
