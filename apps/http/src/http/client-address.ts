import { isIP } from "node:net";
import type { Context } from "hono";
import { incomingOf } from "./admission.js";
import type { AppEnv } from "./app-env.js";

/** `::ffff:192.0.2.1` (an IPv4 client of a dual-stack socket) is `192.0.2.1`, as a proxy writes it. */
const MAPPED_IPV4 = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i;

/** `text` as an IP address, trimmed and unmapped; undefined when it is not one. */
function address(text: string | undefined): string | undefined {
  const trimmed = text?.trim();
  if (!trimmed || !isIP(trimmed)) return undefined;
  return MAPPED_IPV4.exec(trimmed)?.[1] ?? trimmed;
}

/**
 * The client's address from the connection's peer and `X-Forwarded-For`, trusting `trustedHops`
 * proxies in front of the server. Each trusted proxy appends the address it received the request
 * from, so the client is the `trustedHops`-th entry from the right; whatever lies left of it was
 * written by the client and proves nothing (taking the leftmost entry, as the reference does, lets a
 * client choose its own address). With no trusted proxy, the peer itself. Fewer entries than hops,
 * or an entry that is not an address where a trusted proxy should have written one: the last address
 * known to come from a trusted hop.
 */
export function clientAddressFrom(
  peer: string | undefined,
  forwardedFor: string | undefined,
  trustedHops: number,
): string | undefined {
  let found = address(peer);
  if (trustedHops === 0 || forwardedFor === undefined) return found;
  const entries = forwardedFor.split(",");
  for (let hop = 1; hop <= trustedHops && hop <= entries.length; hop++) {
    const entry = address(entries[entries.length - hop]);
    if (entry === undefined) break;
    found = entry;
  }
  return found;
}

/** The peer of the connection under `c`; undefined for a request made in-process (tests). */
const peerOf = (c: Context<AppEnv>): string | undefined =>
  (incomingOf(c) as { socket?: { remoteAddress?: string } } | undefined)?.socket?.remoteAddress;

/**
 * The client address of a request (`API_TRUSTED_PROXY_HOPS`, see `clientAddressFrom`): what the
 * per-IP limits count, captcha's `remoteip`, the address an MFA challenge is bound to, and audit
 * entries' `ip_address`. Undefined only for a request made in-process without `X-Forwarded-For`.
 */
export function clientAddress(c: Context<AppEnv>): string | undefined {
  return clientAddressFrom(peerOf(c), c.req.header("x-forwarded-for"), c.get("trustedProxyHops"));
}
