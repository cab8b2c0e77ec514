import { describe, expect, it } from "vitest";
import { addressRefusal, hostnameRefusal } from "./address-policy.js";
import { outboundUrlRefusal } from "./outbound-url.js";

/**
 * Every block of the IANA IPv4 and IPv6 Special-Purpose Address Registries that is not globally
 * reachable, each in several spellings a URL or a resolver may hand over.
 */
const SPECIAL: readonly [block: string, spellings: readonly string[]][] = [
  ["0.0.0.0/8 this network", ["0.0.0.0", "0.1.2.3", "0.255.255.255"]],
  ["10.0.0.0/8 private", ["10.0.0.1", "10.255.255.255"]],
  ["100.64.0.0/10 shared address space", ["100.64.0.1", "100.127.255.255"]],
  ["127.0.0.0/8 loopback", ["127.0.0.1", "127.8.9.10", "127.255.255.255"]],
  ["169.254.0.0/16 link-local", ["169.254.169.254", "169.254.0.1"]],
  ["172.16.0.0/12 private", ["172.16.0.1", "172.31.255.255"]],
  ["192.0.0.0/24 IETF protocol assignments", ["192.0.0.1", "192.0.0.170", "192.0.0.255"]],
  ["192.0.2.0/24 documentation", ["192.0.2.1"]],
  ["192.88.99.0/24 6to4 relay anycast", ["192.88.99.1", "192.88.99.255"]],
  ["192.168.0.0/16 private", ["192.168.0.10", "192.168.255.255"]],
  ["198.18.0.0/15 benchmarking", ["198.18.0.1", "198.19.255.255"]],
  ["198.51.100.0/24 documentation", ["198.51.100.7"]],
  ["203.0.113.0/24 documentation", ["203.0.113.9"]],
  ["224.0.0.0/4 multicast", ["224.0.0.251", "239.255.255.250"]],
  ["240.0.0.0/4 reserved", ["240.0.0.1", "254.255.255.255"]],
  ["255.255.255.255 broadcast", ["255.255.255.255"]],
  ["::/128 unspecified", ["::", "0:0:0:0:0:0:0:0", "0::0"]],
  ["::1/128 loopback", ["::1", "0:0:0:0:0:0:0:1", "0000::0001"]],
  ["::a.b.c.d IPv4-compatible", ["::8.8.8.8", "::808:808", "0:0:0:0:0:0:8.8.8.8", "::10.0.0.1", "::0.0.0.2"]],
  [
    "::ffff:0:0/96 IPv4-mapped",
    ["::ffff:8.8.8.8", "::ffff:808:808", "::FFFF:127.0.0.1", "0:0:0:0:0:ffff:a00:1", "::ffff:a9fe:a9fe"],
  ],
  [
    "64:ff9b::/96 NAT64 of a special IPv4",
    [
      "64:ff9b::169.254.169.254",
      "64:ff9b::a9fe:a9fe",
      "64:ff9b::127.0.0.1",
      "64:FF9B:0:0:0:0:c0a8:101",
      "64:ff9b::10.0.0.1",
      "64:ff9b::",
      "64:ff9b::ffff:ffff",
    ],
  ],
  ["64:ff9b:1::/48 local-use NAT64", ["64:ff9b:1::1", "64:ff9b:1::8.8.8.8", "64:ff9b:1:ffff::808:808"]],
  ["100::/64 discard-only", ["100::1", "100::ffff:ffff:ffff:ffff", "0100:0:0:0::"]],
  ["100:0:0:1::/64 dummy prefix", ["100:0:0:1::1"]],
  [
    "2001::/23 IETF protocol assignments",
    ["2001::1", "2001:0:4136:e378:8000:63bf:3fff:fdd2", "2001:2::1", "2001:10::1", "2001:1ff:ffff::1"],
  ],
  ["2001:db8::/32 documentation", ["2001:db8::1", "2001:DB8:ffff::1", "2001:0db8:0:0:0:0:0:1"]],
  ["2002::/16 6to4", ["2002::1", "2002:7f00:1::1", "2002:808:808::1", "2002:ffff::1"]],
  ["3fff::/20 documentation", ["3fff::1", "3fff:fff:ffff::1"]],
  ["5f00::/16 segment routing SIDs", ["5f00::1", "5f00:ffff::1"]],
  ["fc00::/7 unique local", ["fc00::1", "fd12:3456::1", "FDFF::1"]],
  ["fe80::/10 link-local", ["fe80::1", "febf::1", "fe80::1%eth0"]],
  ["fec0::/10 site-local", ["fec0::1", "feff::1"]],
  ["ff00::/8 multicast", ["ff02::1", "ff05::1:3", "FF0E::1"]],
  ["outside 2000::/3 global unicast", ["4000::1", "8000::1", "1::1", "e000::1"]],
];

describe("addressRefusal", () => {
  it.each(SPECIAL.flatMap(([block, spellings]) => spellings.map((address) => [address, block])))(
    "refuses %s (%s)",
    (address) => {
      expect(addressRefusal(address)).not.toBeNull();
    },
  );

  it.each([
    "93.184.216.34",
    "8.8.8.8",
    "1.1.1.1",
    "172.32.0.1",
    "100.63.255.255",
    "100.128.0.0",
    "192.0.1.1",
    "192.88.98.1",
    "198.20.0.1",
    "223.255.255.255",
    "2606:4700::1111",
    "2a00:1450:4001::200e",
    "2001:200::1",
    "2003::1",
    "3fff:1000::1",
    // Well-known NAT64 (64:ff9b::/96) is globally reachable: an IPv6-only host reaches public IPv4
    // servers through it, and is judged by the IPv4 address it carries.
    "64:ff9b::8.8.8.8",
    "64:ff9b::808:808",
  ])("allows the public %s", (address) => {
    expect(addressRefusal(address)).toBeNull();
  });

  it("allows loopback, and nothing else private, only with the test switch", () => {
    const tests = { allowLoopbackForTests: true };
    expect(addressRefusal("127.0.0.1", tests)).toBeNull();
    expect(addressRefusal("::1", tests)).toBeNull();
    expect(addressRefusal("10.0.0.1", tests)).not.toBeNull();
    expect(addressRefusal("169.254.169.254", tests)).not.toBeNull();
    for (const address of ["::ffff:127.0.0.1", "64:ff9b::127.0.0.1", "::127.0.0.1", "2002:7f00:1::1"]) {
      expect(addressRefusal(address, tests), address).not.toBeNull();
    }
  });

  it("refuses local host names whatever they resolve to", () => {
    for (const name of ["localhost", "LOCALHOST.", "api.localhost", "printer.local", "db.internal"]) {
      expect(hostnameRefusal(name), name).not.toBeNull();
    }
    expect(hostnameRefusal("login.example.com")).toBeNull();
  });
});

describe("outboundUrlRefusal", () => {
  it("wants https, no credentials, and a public address", async () => {
    expect(await outboundUrlRefusal("http://93.184.216.34/x")).toBe("only https URLs are allowed");
    expect(await outboundUrlRefusal("ftp://93.184.216.34/x")).toBe("only https URLs are allowed");
    expect(await outboundUrlRefusal("not a url")).toBe("not a valid URL");
    expect(await outboundUrlRefusal("https://a:b@93.184.216.34/")).toMatch(/credentials/);
    expect(await outboundUrlRefusal("https://[::ffff:127.0.0.1]/")).toMatch(/IPv4-mapped/);
    expect(await outboundUrlRefusal("https://[2002:a9fe:a9fe::1]/")).toMatch(/6to4/);
    expect(await outboundUrlRefusal("https://[64:ff9b:1::a9fe:a9fe]/")).toMatch(/NAT64/);
    expect(await outboundUrlRefusal("https://[::a9fe:a9fe]/")).toMatch(/IPv4-compatible/);
    expect(await outboundUrlRefusal("https://localhost/")).toMatch(/names this machine/);
    expect(await outboundUrlRefusal("https://93.184.216.34/")).toBeNull();
  });

  it("with the test switch: plain http only toward loopback", async () => {
    const tests = { allowLoopbackForTests: true };
    expect(await outboundUrlRefusal("http://127.0.0.1:8080/realm", tests)).toBeNull();
    expect(await outboundUrlRefusal("http://localhost:8080/realm", tests)).toBeNull();
    expect(await outboundUrlRefusal("http://93.184.216.34/realm", tests)).toBe("only https URLs are allowed");
    expect(await outboundUrlRefusal("http://10.0.0.1/realm", tests)).toMatch(/private/);
  });

  it("refuses a name that does not resolve", async () => {
    expect(await outboundUrlRefusal("https://no-such-host.invalid/")).toMatch(/does not resolve/);
  });
});
