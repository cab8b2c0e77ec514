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

const LOOPBACK = new BlockList();
LOOPBACK.addSubnet("127.0.0.0", 8, "ipv4");
LOOPBACK.addAddress("::1", "ipv6");

/**
 * Addresses no outbound call may reach: this network and unspecified, RFC 1918 private networks,
 * shared address space (carrier NAT), link-local (169.254.0.0/16, the cloud metadata address among
 * them), IETF protocol assignments, benchmarking, documentation, multicast, reserved and broadcast;
 * in IPv6, unspecified, unique local (fc00::/7), link-local, site-local, multicast and documentation.
 * IPv4-mapped and NAT64 IPv6 addresses are judged by the IPv4 address they carry.
 */
const FORBIDDEN = new BlockList();
for (const [net, bits] of [
  ["0.0.0.0", 8],
  ["10.0.0.0", 8],
  ["100.64.0.0", 10],
  ["169.254.0.0", 16],
  ["172.16.0.0", 12],
  ["192.0.0.0", 24],
  ["192.0.2.0", 24],
  ["192.168.0.0", 16],
  ["198.18.0.0", 15],
  ["198.51.100.0", 24],
  ["203.0.113.0", 24],
  ["224.0.0.0", 4],
  ["240.0.0.0", 4],
] as const) {
  FORBIDDEN.addSubnet(net, bits, "ipv4");
}
for (const [net, bits] of [
  ["::", 128],
  ["fc00::", 7],
  ["fe80::", 10],
  ["fec0::", 10],
  ["ff00::", 8],
  ["2001:db8::", 32],
  ["100::", 64],
] as const) {
  FORBIDDEN.addSubnet(net, bits, "ipv6");
}

/** The IPv4 address an IPv4-mapped (::ffff:a.b.c.d) or NAT64 (64:ff9b::/96) address carries. */
function embeddedIpv4(address: string): string | null {
  const lower = address.toLowerCase();
  const mapped = /^(?:::ffff:|64:ff9b::)(\d+\.\d+\.\d+\.\d+)$/.exec(lower);
  if (mapped?.[1]) return mapped[1];
  const hex = /^(?:::ffff:|64:ff9b::)([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(lower);
  if (!hex?.[1] || !hex[2]) return null;
  const high = Number.parseInt(hex[1], 16);
  const low = Number.parseInt(hex[2], 16);
  return [high >> 8, high & 255, low >> 8, low & 255].join(".");
}

/** Why `address` (an IP literal) may not be called under `policy`, or null when it may. */
export function addressRefusal(address: string, policy: OutboundPolicy = {}): string | null {
  const family = isIP(address);
  if (family === 0) return `${address} is not an IP address`;
  const v4 = family === 6 ? embeddedIpv4(address) : null;
  if (v4 !== null) return addressRefusal(v4, policy);
  const type = family === 4 ? "ipv4" : "ipv6";
  if (LOOPBACK.check(address, type)) {
    return policy.allowLoopbackForTests ? null : `${address} is a loopback address`;
  }
  if (FORBIDDEN.check(address, type)) return `${address} is a private or reserved address`;
  return null;
}

/** Whether `address` is a loopback address (the only plain-http target, and only for tests). */
export function isLoopback(address: string): boolean {
  const v4 = isIP(address) === 6 ? embeddedIpv4(address) : null;
  if (v4 !== null) return isLoopback(v4);
  const family = isIP(address);
  return family !== 0 && LOOPBACK.check(address, family === 4 ? "ipv4" : "ipv6");
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
