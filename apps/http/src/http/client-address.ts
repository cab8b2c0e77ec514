import { BlockList, isIP } from "node:net";
import type { Context } from "hono";
import type { AppEnv } from "./app-env.js";
import { NO_PROXY, type ProxyTrust } from "./proxy-trust.js";

export { NO_PROXY, type ProxyTrust } from "./proxy-trust.js";

import { incomingOf } from "./incoming.js";

/** `[2001:db8::1]`, `[2001:db8::1]:443`: an IPv6 address as RFC 7239 writes it, port or not. */
const BRACKETED = /^\[([^\]]*)\](?::\d+)?$/;
/** `192.0.2.1:8080`: what some proxies append (Azure's gateways add the client's port). */
const IPV4_WITH_PORT = /^(\d+\.\d+\.\d+\.\d+):\d+$/;
/** An IPv4 client of a dual-stack socket, as WHATWG's serializer writes it (`::ffff:c000:201`). */
const MAPPED_IPV4 = /^::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/;

/**
 * `text` as an IP address in one spelling per address, so that a limit counts one client once
 * whatever the proxy wrote: trimmed, without brackets or port, without an IPv6 zone (`%eth0` names
 * an interface of the host that wrote it, and has no length limit), IPv6 lowercase and shortest
 * (RFC 5952), IPv4-mapped IPv6 as IPv4. Undefined when it is not an address.
 */
function address(text: string | undefined): string | undefined {
  const trimmed = text?.trim();
  if (!trimmed) return undefined;
  let ip = BRACKETED.exec(trimmed)?.[1] ?? IPV4_WITH_PORT.exec(trimmed)?.[1] ?? trimmed;
  const zone = ip.indexOf("%");
  if (zone !== -1) ip = ip.slice(0, zone);
  const family = isIP(ip);
  if (family === 4) return ip;
  if (family !== 6) return undefined;
  const canonical = new URL(`http://[${ip}]`).hostname.slice(1, -1);
  const mapped = MAPPED_IPV4.exec(canonical);
  if (mapped === null) return canonical;
  const [high, low] = [Number.parseInt(mapped[1] ?? "", 16), Number.parseInt(mapped[2] ?? "", 16)];
  return `${high >> 8}.${high & 0xff}.${low >> 8}.${low & 0xff}`;
}

/** The trust of `hops` hops and of the addresses in `ranges` (`10.0.0.0/8`, `2001:db8::1`). */
export function proxyTrust(hops: number, ranges: readonly string[] = []): ProxyTrust {
  if (ranges.length === 0) return hops === 0 ? NO_PROXY : { hops, isTrusted: NO_PROXY.isTrusted };
  const list = new BlockList();
  for (const range of ranges) {
    const [net = "", prefix] = range.split("/");
    const type = isIP(net) === 6 ? "ipv6" : "ipv4";
    if (prefix === undefined) list.addAddress(net, type);
    else list.addSubnet(net, Number(prefix), type);
  }
  return { hops, isTrusted: (ip) => list.check(ip, isIP(ip) === 6 ? "ipv6" : "ipv4") };
}

/**
 * The client's address from the connection's peer and `X-Forwarded-For`. Each proxy appends the
 * address it received the request from, so the chain is read from the right: past the peer, one
 * entry per trusted hop — the first `trust.hops` hops, and then any hop whose address is trusted —
 * and the first untrusted address is the client. Whatever lies left of it was written by the client
 * and proves nothing (taking the leftmost entry, as the reference does, lets a client choose its own
 * address). Fewer entries than hops, or an entry that is not an address where a trusted proxy should
 * have written one: the last address that came from a trusted hop.
 */
export function clientAddressFrom(
  peer: string | undefined,
  forwardedFor: string | undefined,
  trust: ProxyTrust,
): string | undefined {
  let found = address(peer);
  if (forwardedFor === undefined) return found;
  const entries = forwardedFor.split(",");
  for (let hop = 0; hop < entries.length; hop++) {
    const believed = hop < trust.hops || (found !== undefined && trust.isTrusted(found));
    if (!believed) break;
    const entry = address(entries[entries.length - 1 - hop]);
    if (entry === undefined) break;
    found = entry;
  }
  return found;
}

/** The peer of the connection under `c`; undefined for a request made in-process (tests). */
const peerOf = (c: Context<AppEnv>): string | undefined =>
  (incomingOf(c) as { socket?: { remoteAddress?: string } } | undefined)?.socket?.remoteAddress;

/**
 * The client address of a request (see `clientAddressFrom`): what the per-IP limits count,
 * captcha's `remoteip`, the address an MFA challenge is bound to, and audit entries' `ip_address`.
 * Undefined only for a request made in-process without `X-Forwarded-For`. Found once per request:
 * each of those (every audit entry of it, too) asks again.
 */
export function clientAddress(c: Context<AppEnv>): string | undefined {
  const known = c.get("clientAddress") as string | null | undefined;
  if (known !== undefined) return known ?? undefined;
  const found = clientAddressFrom(peerOf(c), c.req.header("x-forwarded-for"), c.get("proxyTrust"));
  c.set("clientAddress", found ?? null);
  return found;
}

/**
 * What a per-client limit counts for `address` (a client address): an IPv4 address as it is, an
 * IPv6 one by its /64 (`2001:db8:1:2::/64`). One subscriber, one host even, is given a whole /64 and
 * picks its source address in it at will (RFC 4941): counted one address at a time, an IPv6 client
 * could make each request from a new one and never be limited.
 */
export function limitedBlock(address: string): string {
  if (!address.includes(":")) return address;
  const [head = "", tail] = address.split("::");
  const front = head === "" ? [] : head.split(":");
  const back = tail === undefined || tail === "" ? [] : tail.split(":");
  const groups = [...front, ...Array<string>(8 - front.length - back.length).fill("0"), ...back];
  return `${groups.slice(0, 4).join(":")}::/64`;
}
