import { describe, expect, it } from "vitest";
import { send } from "../testing/requests.js";
import { testApp } from "../testing/test-app.js";
import { clientAddressFrom } from "./client-address.js";

describe("clientAddressFrom", () => {
  it("is the connection's peer when no proxy is trusted, whatever X-Forwarded-For says", () => {
    expect(clientAddressFrom("192.0.2.7", "198.51.100.1", 0)).toBe("192.0.2.7");
    expect(clientAddressFrom("::ffff:192.0.2.7", undefined, 0)).toBe("192.0.2.7");
    expect(clientAddressFrom("2001:db8::7", "198.51.100.1", 0)).toBe("2001:db8::7");
    expect(clientAddressFrom(undefined, "198.51.100.1", 0)).toBeUndefined();
  });

  it("takes the entry as many places from the right as there are trusted proxies", () => {
    const chain = "203.0.113.66, 198.51.100.1, 10.0.0.2";
    expect(clientAddressFrom("10.0.0.3", chain, 1)).toBe("10.0.0.2");
    expect(clientAddressFrom("10.0.0.3", chain, 2)).toBe("198.51.100.1");
    expect(clientAddressFrom("10.0.0.3", " 2001:db8::1 ,10.0.0.2", 2)).toBe("2001:db8::1");
  });

  it("ignores what the client wrote left of the trusted entries", () => {
    for (const forged of ["1.1.1.1", "1.1.1.1, 8.8.8.8", "not-an-ip", ""]) {
      expect(clientAddressFrom("10.0.0.3", `${forged}, 198.51.100.1`, 1)).toBe("198.51.100.1");
    }
  });

  it("stops at the last trusted address when the chain is short or holds no address where one is due", () => {
    expect(clientAddressFrom("10.0.0.3", "198.51.100.1", 3)).toBe("198.51.100.1");
    expect(clientAddressFrom("10.0.0.3", "198.51.100.1, garbage", 2)).toBe("10.0.0.3");
    expect(clientAddressFrom("10.0.0.3", "", 1)).toBe("10.0.0.3");
    expect(clientAddressFrom("10.0.0.3", undefined, 1)).toBe("10.0.0.3");
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
});
