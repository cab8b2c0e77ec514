/** Outbound calls to servers named at runtime, kept away from private and local addresses. */
export { addressRefusal, hostnameRefusal, isLoopback, type OutboundPolicy } from "./address-policy.js";
export { type GuardedFetchOptions, guardedFetch, limitedAnswer, MAX_ANSWER_BYTES } from "./guarded-fetch.js";
export { guardedLookup, OutboundRefused, resolveAllowed } from "./guarded-lookup.js";
export { outboundUrlRefusal } from "./outbound-url.js";
