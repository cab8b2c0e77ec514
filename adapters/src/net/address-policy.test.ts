import { describe, expect, it } from "vitest";
import { addressRefusal, hostnameRefusal } from "./address-policy.js";
import { outboundUrlRefusal } from "./outbound-url.js";

describe("addressRefusal", () => {
  it.each([
    "127.0.0.1",
    "127.8.9.10",
    "::1",
    "10.1.2.3",
    "172.16.0.1",
    "172.31.255.255",
    "192.168.0.10",
    "169.254.169.254",
    "100.64.0.1",
    "0.0.0.0",
    "224.0.0.251",
    "255.255.255.255",
    "::",
    "fd12:3456::1",
    "fe80::1",
    "ff02::1",
    "::ffff:10.0.0.1",
    "::ffff:a9fe:a9fe",
    "64:ff9b::169.254.169.254",
  ])("refuses %s", (address) => {
    expect(addressRefusal(address)).not.toBeNull();
  });

  it.each(["93.184.216.34", "8.8.8.8", "172.32.0.1", "2606:4700::1111", "::ffff:8.8.8.8"])(
    "allows the public %s",
    (address) => {
      expect(addressRefusal(address)).toBeNull();
    },
  );

  it("allows loopback, and nothing else private, only with the test switch", () => {
    const tests = { allowLoopbackForTests: true };
    expect(addressRefusal("127.0.0.1", tests)).toBeNull();
    expect(addressRefusal("::1", tests)).toBeNull();
    expect(addressRefusal("10.0.0.1", tests)).not.toBeNull();
    expect(addressRefusal("169.254.169.254", tests)).not.toBeNull();
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
    expect(await outboundUrlRefusal("https://[::ffff:127.0.0.1]/")).toMatch(/loopback/);
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
