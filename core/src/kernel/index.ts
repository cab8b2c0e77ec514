/** The kernel: what every slice shares (errors, results, time, randomness, pure helpers). */

export { type AbsoluteUrl, isLoopbackHost, parseAbsoluteUrl } from "./absolute-url.js";
export * from "./constant-time.js";
export type * from "./deps.js";
export { AuthError, type ErrorCode, ErrorCodes, HookRejection, OAUTH_ERROR_CODES } from "./errors.js";
export { assertNamedOnce, type FailureCatalogue, failureConstructors, kernelFailures } from "./failures.js";
export * from "./outbox.js";
export type * from "./ports/clock.js";
export type * from "./ports/delivery-queue.js";
export type * from "./ports/port-traits.js";
export type * from "./ports/random.js";
export type * from "./ports/secret-tokens.js";
export type * from "./ports/transactor.js";
export { globMatch, isRedirectAllowed, resolveRedirect } from "./redirect.js";
export * from "./result.js";
export type * from "./settings.js";
export { type Composed, defineSlice, type Intersection, mergeTraits } from "./slice.js";
export * from "./storable-text.js";
export * from "./transaction.js";
export * from "./uuid.js";
