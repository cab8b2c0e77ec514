import { describe, expect, it } from "vitest";
import { send } from "../testing/requests.js";
import { testApp } from "../testing/test-app.js";
import { clientAddressFrom, limitedBlock, NO_PROXY, proxyTrust } from "./client-address.js";

describe("clientAddressFrom", () => {
  it("is the connection's peer when no proxy is trusted, whatever X-Forwarded-For says", () => {
    expect(clientAddressFrom("192.0.2.7", "198.51.100.1", NO_PROXY)).toBe("192.0.2.7");
    expect(clientAddressFrom("::ffff:192.0.2.7", undefined, NO_PROXY)).toBe("192.0.2.7");
    expect(clientAddressFrom("2001:db8::7", "198.51.100.1", NO_PROXY)).toBe("2001:db8::7");
    expect(clientAddressFrom(undefined, "198.51.100.1", NO_PROXY)).toBeUndefined();
  });

  it("takes the entry as many places from the right as there are trusted proxies", () => {
    const chain = "203.0.113.66, 198.51.100.1, 10.0.0.2";
    expect(clientAddressFrom("10.0.0.3", chain, proxyTrust(1))).toBe("10.0.0.2");
    expect(clientAddressFrom("10.0.0.3", chain, proxyTrust(2))).toBe("198.51.100.1");
    expect(clientAddressFrom("10.0.0.3", " 2001:db8::1 ,10.0.0.2", proxyTrust(2))).toBe("2001:db8::1");
  });

  it("ignores what the client wrote left of the trusted entries", () => {
    for (const forged of ["1.1.1.1", "1.1.1.1, 8.8.8.8", "not-an-ip", ""]) {
      expect(clientAddressFrom("10.0.0.3", `${forged}, 198.51.100.1`, proxyTrust(1))).toBe("198.51.100.1");
    }
  });

  it("stops at the last trusted address when the chain is short or holds no address where one is due", () => {
    expect(clientAddressFrom("10.0.0.3", "198.51.100.1", proxyTrust(3))).toBe("198.51.100.1");
    expect(clientAddressFrom("10.0.0.3", "198.51.100.1, garbage", proxyTrust(2))).toBe("10.0.0.3");
    expect(clientAddressFrom("10.0.0.3", "", proxyTrust(1))).toBe("10.0.0.3");
    expect(clientAddressFrom("10.0.0.3", undefined, proxyTrust(1))).toBe("10.0.0.3");
  });
});

describe("clientAddressFrom, reading addresses as proxies write them", () => {
  const oneHop = proxyTrust(1);
  const read = (entry: string) => clientAddressFrom("10.0.0.3", `203.0.113.66, ${entry}`, oneHop);

  it("takes an address with a port, or in brackets, as the address (not the proxy's)", () => {
    expect(read("198.51.100.1:51234")).toBe("198.51.100.1");
    expect(read("[2001:db8::1]:443")).toBe("2001:db8::1");
    expect(read("[2001:db8::1]")).toBe("2001:db8::1");
  });

  it("spells each address one way: IPv6 lowercase and shortest, IPv4-mapped as IPv4, no zone", () => {
    expect(read("2001:DB8:0:0:0:0:0:1")).toBe("2001:db8::1");
    expect(read("::FFFF:198.51.100.1")).toBe("198.51.100.1");
    expect(read("0:0:0:0:0:ffff:c633:6401")).toBe("198.51.100.1");
    expect(clientAddressFrom("::ffff:c633:6401", undefined, NO_PROXY)).toBe("198.51.100.1");
    expect(read("fe80::1%eth0")).toBe("fe80::1");
    // A zone has no length limit: the address stays within an audit entry's 64 characters.
    expect(read(`fe80::1%${"a".repeat(500)}`)).toBe("fe80::1");
  });

  it("takes nothing else for an address: the proxy's own is then the last trusted one", () => {
    for (const entry of ["unknown", "", "[]", "[198.51.100.1", "198.51.100.1:", "198.51.100.1:x", "%eth0"]) {
      expect(read(entry)).toBe("10.0.0.3");
    }
  });
});

describe("limitedBlock", () => {
  it("is an IPv4 address itself, and an IPv6 one's /64", () => {
    expect(limitedBlock("198.51.100.1")).toBe("198.51.100.1");
    expect(limitedBlock("2001:db8:1:2:3:4:5:6")).toBe("2001:db8:1:2::/64");
    expect(limitedBlock("2001:db8::1")).toBe("2001:db8:0:0::/64");
    expect(limitedBlock("::1")).toBe("0:0:0:0::/64");
    expect(limitedBlock("fe80::")).toBe("fe80:0:0:0::/64");
    expect(limitedBlock("1:2:3:4:5::")).toBe("1:2:3:4::/64");
  });
});

describe("clientAddressFrom with trusted ranges", () => {
  const behindCdn = proxyTrust(1, ["203.0.113.0/24", "2001:db8:cd00::/48"]);

  it("skips hops in the ranges past the counted ones, and stops at the first address outside them", () => {
    // client → CDN (203.0.113.x) → load balancer (counted hop) → server
    expect(clientAddressFrom("10.0.0.3", "198.51.100.7, 203.0.113.9", behindCdn)).toBe("198.51.100.7");
    expect(clientAddressFrom("10.0.0.3", "1.1.1.1, 198.51.100.7, 203.0.113.9", behindCdn)).toBe(
      "198.51.100.7",
    );
    expect(clientAddressFrom("10.0.0.3", "198.51.100.7, 2001:db8:cd00::5", behindCdn)).toBe("198.51.100.7");
    // Not through the CDN: the load balancer's entry is the client.
    expect(clientAddressFrom("10.0.0.3", "203.0.113.9, 198.51.100.8", behindCdn)).toBe("198.51.100.8");
  });

  it("trusts the peer itself by range, with no hop counted", () => {
    const lan = proxyTrust(0, ["10.0.0.0/8"]);
    expect(clientAddressFrom("10.1.2.3", "1.1.1.1, 198.51.100.7", lan)).toBe("198.51.100.7");
    expect(clientAddressFrom("::ffff:10.1.2.3", "198.51.100.7", lan)).toBe("198.51.100.7");
    expect(clientAddressFrom("192.0.2.50", "198.51.100.7", lan)).toBe("192.0.2.50");
  });
});

describe("audit entries", () => {
  it("carry the client address of the request that wrote them", async () => {
    const t = testApp(
      { trustedProxyHops: 1 },
      { signup: { ...testApp().auth.settings.signup, mailerAutoconfirm: true } },
    );
    const res = await send(
      t.app,
      "POST",
      "/signup",
      { email: "ann@example.com", password: "secret-pw" },
      { "x-forwarded-for": "1.1.1.1, 198.51.100.23" },
    );
    expect(res.status).toBe(200);
    const { entries } = await t.auth.store.audit.list({ offset: 0, limit: 10 });
    // The sign-up and its first sign-in, both by the client behind the proxy.
    expect(entries.map((e) => [e.payload.action, e.ipAddress]).sort()).toEqual([
      ["login", "198.51.100.23"],
      ["user_signedup", "198.51.100.23"],
    ]);
  });

  it("carry it on the password and refresh-token grants' entries, written in one statement of their own", async () => {
    const t = testApp(
      { trustedProxyHops: 1 },
      { signup: { ...testApp().auth.settings.signup, mailerAutoconfirm: true } },
    );
    const from = (address: string) => ({ "x-forwarded-for": `1.1.1.1, ${address}` });
    await send(
      t.app,
      "POST",
      "/signup",
      { email: "ann@example.com", password: "secret-pw" },
      from("198.51.100.1"),
    );
    const signIn = await send(
      t.app,
      "POST",
      "/token?grant_type=password",
      { email: "ann@example.com", password: "secret-pw" },
      from("198.51.100.2"),
    );
    expect(signIn.status).toBe(200);
    const { refresh_token } = (await signIn.json()) as { refresh_token: string };
    const refreshed = await send(
      t.app,
      "POST",
      "/token?grant_type=refresh_token",
      { refresh_token },
      from("198.51.100.3"),
    );
    expect(refreshed.status).toBe(200);
    const { entries } = await t.auth.store.audit.list({ offset: 0, limit: 10 });
    expect(entries.map((e) => [e.payload.action, e.ipAddress]).sort()).toEqual([
      ["login", "198.51.100.1"],
      ["login", "198.51.100.2"],
      ["token_refreshed", "198.51.100.3"],
      ["token_revoked", "198.51.100.3"],
      ["user_signedup", "198.51.100.1"],
    ]);
  });
});
