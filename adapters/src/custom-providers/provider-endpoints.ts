import type { ProviderEndpoints } from "@authsvc/core/custom-providers";
import { guardedFetch } from "../net/guarded-fetch.js";
import type { OutboundPolicy } from "../net/index.js";
import { outboundUrlRefusal } from "../net/outbound-url.js";
import { discoverOidc } from "./discovery.js";

/** The `ProviderEndpoints` port: URLs checked by `outboundUrlRefusal`, discovery over a guarded fetch. */
export function providerEndpoints(
  policy: OutboundPolicy,
  fetchImpl = guardedFetch(policy),
): ProviderEndpoints {
  return {
    refusal: (url) => outboundUrlRefusal(url, policy),
    discover: (url, issuer) => discoverOidc(fetchImpl, url, issuer),
  };
}
