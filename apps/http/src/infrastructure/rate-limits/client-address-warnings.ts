/**
 * Warnings about how the client address is found, given at start: the per-IP limits take it from
 * `X-Forwarded-For` past the trusted proxies, whatever header `RATE_LIMIT_HEADER` names.
 */

import type { Config } from "../../config/shape.js";

const FORWARDED_FOR = "x-forwarded-for";

/** One warning per setting that would make the per-IP limits count something else than the operator meant. */
export function clientAddressWarnings(config: Config): string[] {
  const header = config.rateLimit.header;
  if (header === undefined) return [];
  const warnings: string[] = [];
  if (header.toLowerCase() !== FORWARDED_FOR) {
    // Until this server counted from the right, the header's first entry was the client; a setting such
    // as CF-Connecting-IP would now be believed to still choose the address, and it does not.
    warnings.push(
      `AUTHSVC_RATE_LIMIT_HEADER names ${header}, which is not read: it only turns the per-IP limits on, and the client address is taken from X-Forwarded-For past AUTHSVC_API_TRUSTED_PROXY_HOPS proxies (and AUTHSVC_API_TRUSTED_PROXIES); see docs/http-api.md, Client address`,
    );
  }
  if (config.api.trustedProxyHops === 0 && config.api.trustedProxies.length === 0) {
    // The usual setting behind a load balancer; there, every client would share the balancer's count.
    warnings.push(
      "per-IP limits count the connection's peer (AUTHSVC_API_TRUSTED_PROXY_HOPS is 0, no AUTHSVC_API_TRUSTED_PROXIES): behind a proxy, set it to the number of proxies",
    );
  }
  return warnings;
}
