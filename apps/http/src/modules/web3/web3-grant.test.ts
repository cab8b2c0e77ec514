import { describe, expect, it } from "vitest";
import { NEW_API, send } from "../../testing/requests.js";
import { testApp } from "../../testing/test-app.js";

describe("POST /token?grant_type=web3 with no chain enabled", () => {
  it("answers 422 web3_provider_disabled, as auth-js's signInWithWeb3 expects, in both shapes", async () => {
    const { app } = testApp();
    const body = { chain: "ethereum", message: "localhost wants you to sign in", signature: "0x00" };
    const dated = await send(app, "POST", "/token?grant_type=web3", body, NEW_API);
    expect(dated.status).toBe(422);
    expect(await dated.json()).toMatchObject({
      code: "web3_provider_disabled",
      message: "Web3 provider is disabled",
    });
    const legacy = await send(app, "POST", "/token?grant_type=web3", { chain: "solana" });
    expect(legacy.status).toBe(422);
    expect(await legacy.json()).toMatchObject({ code: 422, error_code: "web3_provider_disabled" });
  });

  it("answers a malformed body (auth-js sends a byte array as an object) as disabled too, as the reference", async () => {
    const { app } = testApp();
    const body = { chain: "ethereum", message: "test message", signature: { 0: 1, 1: 2, 2: 3 } };
    const res = await send(app, "POST", "/token?grant_type=web3", body, NEW_API);
    expect(res.status).toBe(422);
    expect(await res.json()).toMatchObject({ code: "web3_provider_disabled" });
  });
});

describe("POST /token?grant_type=web3 with a chain enabled", () => {
  it("refuses a body that is not an object of strings as any grant does", async () => {
    const on = { enabled: true, maxValidityMs: 600_000 };
    const { app } = testApp({}, { web3: { ethereum: on, solana: on } });
    const res = await send(app, "POST", "/token?grant_type=web3", { chain: 7 }, NEW_API);
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ code: "validation_failed" });
  });
});
