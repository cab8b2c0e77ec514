import { BlockList, isIP } from "node:net";

/** Whom outbound calls to operator- or admin-given URLs may reach. */
export interface OutboundPolicy {
  /**
   * For tests only: plain `http:` and loopback addresses (127.0.0.0/8, ::1, `localhost`) are
   * allowed, so that a test's provider on 127.0.0.1 can be reached. Private, link-local, metadata
   * and multicast addresses stay refused.
   */
  readonly allowLoopbackForTests?: boolean;
}

/**
 * The blocks of the IANA IPv4 and IPv6 Special-Purpose Address Registries that are not globally
 * reachable, each with the name a refusal gives. The matching is Node's `BlockList`; IPv4 and IPv6
 * are kept in lists of their own, because a `BlockList` also matches an IPv4 address against an IPv6
 * rule for `::ffff:0:0/96`.
 */
const SPECIAL_IPV4: readonly (readonly [net: string, bits: number, name: string])[] = [
  ["0.0.0.0", 8, "'this network'"],
  ["10.0.0.0", 8, "private-use"],
  ["100.64.0.0", 10, "shared address space (carrier-grade NAT)"],
  ["127.0.0.0", 8, "loopback"],
  ["169.254.0.0", 16, "link-local (cloud metadata)"],
  ["172.16.0.0", 12, "private-use"],
  ["192.0.0.0", 24, "IETF protocol assignments"],
  ["192.0.2.0", 24, "documentation"],
  ["192.88.99.0", 24, "6to4 relay anycast"],
  ["192.168.0.0", 16, "private-use"],
  ["198.18.0.0", 15, "benchmarking"],
  ["198.51.100.0", 24, "documentation"],
  ["203.0.113.0", 24, "documentation"],
  ["224.0.0.0", 4, "multicast"],
  ["240.0.0.0", 4, "reserved (and the broadcast address)"],
];

/**
 * The IPv6 blocks. Well-known NAT64 (64:ff9b::/96) is globally reachable — an IPv6-only host with
 * DNS64 reaches every IPv4-only server through it — so it is judged by the IPv4 address it carries:
 * each IPv4 block above is refused inside it too (added below). Every other way of carrying an IPv4
 * address (IPv4-mapped, IPv4-compatible, 6to4, Teredo, local-use NAT64) is refused whole: nothing
 * public needs it, and the gateway it would go through decides where it really lands.
 */
const SPECIAL_IPV6: readonly (readonly [net: string, bits: number, name: string])[] = [
  ["::", 96, "unspecified or IPv4-compatible (deprecated)"],
  ["::ffff:0:0", 96, "IPv4-mapped"],
  ["64:ff9b:1::", 48, "local-use NAT64"],
  ["100::", 64, "discard-only"],
  ["100:0:0:1::", 64, "dummy prefix"],
  ["2001::", 23, "IETF protocol assignments (Teredo among them)"],
  ["2001:db8::", 32, "documentation"],
  ["2002::", 16, "6to4"],
  ["3fff::", 20, "documentation"],
  ["5f00::", 16, "segment routing SIDs"],
  ["fc00::", 7, "unique local"],
  ["fe80::", 10, "link-local"],
  ["fec0::", 10, "site-local (deprecated)"],
  ["ff00::", 8, "multicast"],
];

function blockList(family: "ipv4" | "ipv6", blocks: readonly (readonly [string, number, string])[]) {
  return blocks.map(([net, bits, name]) => {
    const list = new BlockList();
    list.addSubnet(net, bits, family);
    return { list, name: `${name} (${net}/${bits})` };
  });
}

const IPV4_BLOCKS = blockList("ipv4", SPECIAL_IPV4);
const IPV6_BLOCKS = blockList("ipv6", [
  ...SPECIAL_IPV6,
  ...SPECIAL_IPV4.map(([net, bits, name]) => [`64:ff9b::${net}`, 96 + bits, `NAT64 of ${name}`] as const),
]);
/** Only the global unicast space (2000::/3) and well-known NAT64 are ever routed to a public server. */
const ROUTABLE_IPV6 = new BlockList();
ROUTABLE_IPV6.addSubnet("2000::", 3, "ipv6");
ROUTABLE_IPV6.addSubnet("64:ff9b::", 96, "ipv6");

const LOOPBACK_IPV4 = new BlockList();
LOOPBACK_IPV4.addSubnet("127.0.0.0", 8, "ipv4");
const LOOPBACK_IPV6 = new BlockList();
LOOPBACK_IPV6.addAddress("::1", "ipv6");

/**
 * Whether `address` is a loopback address (the only plain-http target, and only for tests):
 * 127.0.0.0/8 or `::1`, in any spelling, and nothing that carries 127.0.0.0/8 (IPv4-mapped, NAT64),
 * which a translator or the other stack, not this machine's loopback, would answer.
 */
export function isLoopback(address: string): boolean {
  const family = isIP(address);
  if (family === 4) return LOOPBACK_IPV4.check(address, "ipv4");
  return family === 6 && LOOPBACK_IPV6.check(address, "ipv6");
}

/**
 * Why `address` (an IP literal) may not be called under `policy`, or null when it may: every block of
 * the IANA special-purpose registries that is not globally reachable is refused, and in IPv6 anything
 * outside the global unicast space; with the test switch, loopback (127.0.0.0/8, ::1) is allowed.
 */
export function addressRefusal(address: string, policy: OutboundPolicy = {}): string | null {
  const family = isIP(address);
  if (family === 0) return `${address} is not an IP address`;
  if (isLoopback(address)) return policy.allowLoopbackForTests ? null : `${address} is a loopback address`;
  const type = family === 4 ? "ipv4" : "ipv6";
  const blocks = family === 4 ? IPV4_BLOCKS : IPV6_BLOCKS;
  const block = blocks.find(({ list }) => list.check(address, type));
  if (block !== undefined) return `${address} is a private or reserved address: ${block.name}`;
  if (family === 6 && !ROUTABLE_IPV6.check(address, "ipv6")) {
    return `${address} is a private or reserved address: outside global unicast (2000::/3)`;
  }
  return null;
}

/** Host names that name this machine or nothing public, whatever DNS says. */
export function hostnameRefusal(hostname: string, policy: OutboundPolicy = {}): string | null {
  const name = hostname.toLowerCase().replace(/\.$/, "");
  if (name === "") return "the URL has no host";
  const local = name === "localhost" || name.endsWith(".localhost");
  if (local) return policy.allowLoopbackForTests ? null : `${hostname} names this machine`;
  if (name.endsWith(".internal") || name.endsWith(".local")) return `${hostname} is not a public name`;
  return null;
}
