import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type FreshNamespace, migratedNamespace } from "@authsvc/adapters/testing";
import { productionServerEnv } from "@authsvc/http/testing";
import { GoTrueClient } from "@supabase/auth-js";
import { type Hex, toHex } from "viem";
import { generatePrivateKey, type PrivateKeyAccount, privateKeyToAccount } from "viem/accounts";
import { createSiweMessage } from "viem/siwe";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ServerProcess, startServer } from "./support/server-process.js";

/** Web3 sign-in on the built server, through auth-js's `signInWithWeb3`, with wallets made here. */
const SITE = "https://app.example.com";
const cwd = mkdtempSync(join(tmpdir(), "authsvc-web3-"));
let ns: FreshNamespace;
let disabled: ServerProcess;
let enabled: ServerProcess;
let enabledToo: ServerProcess;

beforeAll(async () => {
  ns = await migratedNamespace();
  const web3Env = productionServerEnv(ns, {
    AUTHSVC_SITE_URL: SITE,
    // The usual development entry: a message for another site must not sign in through it.
    AUTHSVC_URI_ALLOW_LIST: "http://localhost:3000/**",
    AUTHSVC_EXTERNAL_WEB3_ETHEREUM_ENABLED: "true",
    AUTHSVC_EXTERNAL_WEB3_ETHEREUM_MAXIMUM_VALIDITY_DURATION: "5m",
  });
  [disabled, enabled, enabledToo] = await Promise.all([
    startServer(productionServerEnv(ns), { cwd }),
    startServer(web3Env, { cwd }),
    // A second instance on the same database.
    startServer(web3Env, { cwd }),
  ]);
});

afterAll(async () => {
  await Promise.all([disabled?.stop(), enabled?.stop(), enabledToo?.stop()]);
  await ns?.drop();
  rmSync(cwd, { recursive: true, force: true });
});

const client = (server: ServerProcess) =>
  new GoTrueClient({ url: server.url, autoRefreshToken: false, persistSession: false });

/** An EIP-1193 wallet over a key made here, as a browser extension would answer auth-js. */
function walletOf(account: PrivateKeyAccount, chainId = 1) {
  return {
    request: async ({ method, params }: { method: string; params?: unknown[] }) => {
      if (method === "eth_requestAccounts") return [account.address];
      if (method === "eth_chainId") return toHex(chainId);
      if (method === "personal_sign") return account.signMessage({ message: { raw: params?.[0] as Hex } });
      throw new Error(`unsupported ${method}`);
    },
  };
}

/** A signed EIP-4361 message, sent as auth-js sends a pre-signed one. */
async function signed(
  account: PrivateKeyAccount,
  fields: Partial<Parameters<typeof createSiweMessage>[0]> = {},
) {
  const message = createSiweMessage({
    address: account.address,
    chainId: 1,
    domain: "app.example.com",
    nonce: "n0nce1234567",
    uri: `${SITE}/login`,
    version: "1",
    issuedAt: new Date(),
    ...fields,
  });
  return { chain: "ethereum" as const, message, signature: await account.signMessage({ message }) };
}

describe("Web3 sign-in with no chain enabled", () => {
  it("is refused with 'Web3 provider is disabled', as auth-js's own suite expects", async () => {
    for (const chain of ["ethereum", "solana"] as const) {
      const { data, error } = await client(disabled).signInWithWeb3({
        chain,
        message: "localhost wants you to sign in with your account",
        signature: chain === "ethereum" ? "0x00" : new Uint8Array(64),
      } as Parameters<GoTrueClient["signInWithWeb3"]>[0]);
      expect(data.session).toBeNull();
      expect(error).toMatchObject({
        status: 422,
        code: "web3_provider_disabled",
        message: "Web3 provider is disabled",
      });
    }
  });
});

describe("Sign in with Ethereum", () => {
  it("signs in through auth-js with a wallet, as the identity web3:ethereum:<address>, again as the same user", async () => {
    const account = privateKeyToAccount(generatePrivateKey());
    const first = await client(enabled).signInWithWeb3({
      chain: "ethereum",
      wallet: walletOf(account),
      statement: "Sign in to the example app",
      options: { url: `${SITE}/login` },
    } as Parameters<GoTrueClient["signInWithWeb3"]>[0]);
    expect(first.error).toBeNull();
    expect(first.data.session?.access_token).toBeTruthy();
    const user = first.data.user;
    expect(user?.email ?? "").toBe("");
    expect(user?.identities).toEqual([
      expect.objectContaining({
        provider: "web3",
        id: `web3:ethereum:${account.address.toLowerCase()}`,
        identity_data: expect.objectContaining({
          sub: `web3:ethereum:${account.address.toLowerCase()}`,
          custom_claims: expect.objectContaining({
            address: account.address.toLowerCase(),
            chain: "ethereum",
            network: "1",
            domain: "app.example.com",
            statement: "Sign in to the example app",
          }),
        }),
      }),
    ]);
    expect(user?.app_metadata).toMatchObject({ provider: "web3" });
    const second = await client(enabled).signInWithWeb3({
      chain: "ethereum",
      wallet: walletOf(account),
      options: { url: `${SITE}/login` },
    } as Parameters<GoTrueClient["signInWithWeb3"]>[0]);
    expect(second.error).toBeNull();
    expect(second.data.user?.id).toBe(user?.id);
    // A message written with the EIP-55 mixed-case address (viem) opens the same account.
    const checksummed = await client(enabled).signInWithWeb3(await signed(account));
    expect(checksummed.error).toBeNull();
    expect(checksummed.data.user?.id).toBe(user?.id);
  });

  it("refuses a replayed message: a signed message signs in once", async () => {
    const credentials = await signed(privateKeyToAccount(generatePrivateKey()));
    expect((await client(enabled).signInWithWeb3(credentials)).error).toBeNull();
    const replayed = await client(enabled).signInWithWeb3(credentials);
    expect(replayed.error).toMatchObject({
      status: 400,
      message: "Signed Ethereum message was already used to sign in",
    });
    expect(replayed.data.session).toBeNull();
    // Another instance knows it too: the spent messages are in the database.
    const elsewhere = await client(enabledToo).signInWithWeb3(credentials);
    expect(elsewhere.error).toMatchObject({
      status: 400,
      message: "Signed Ethereum message was already used to sign in",
    });
    const fresh = await signed(privateKeyToAccount(generatePrivateKey()));
    expect((await client(enabledToo).signInWithWeb3(fresh)).error).toBeNull();
    expect((await client(enabled).signInWithWeb3(fresh)).error).toMatchObject({ status: 400 });
  });

  it("refuses a wrong domain, a URI off the allow list, an expired message and one issued too long ago", async () => {
    const account = privateKeyToAccount(generatePrivateKey());
    const cases: [Partial<Parameters<typeof createSiweMessage>[0]>, string][] = [
      [
        { domain: "evil.example.net" },
        "Signed Ethereum message is using a Domain that does not match the one in URI which is not allowed on this server",
      ],
      [
        { domain: "evil.example.net", uri: "http://localhost:3000/login" },
        "Signed Ethereum message is using a Domain that does not match the one in URI which is not allowed on this server",
      ],
      [
        { domain: "evil.example.net", uri: "https://evil.example.net/" },
        "Signed Ethereum message is using URI which is not allowed on this server, message was signed for another app",
      ],
      [
        { uri: "http://app.example.com/login" },
        "Signed Ethereum message is using URI which does not use HTTPS",
      ],
      [
        { issuedAt: new Date(Date.now() - 60_000), expirationTime: new Date(Date.now() - 1000) },
        "Signed Ethereum message is expired",
      ],
      [{ issuedAt: new Date(Date.now() - 6 * 60_000) }, "Ethereum message was issued too long ago"],
      [{ issuedAt: new Date(Date.now() + 6 * 60_000) }, "Ethereum message was issued too far in the future"],
      [{ notBefore: new Date(Date.now() + 60_000) }, "Signed Ethereum message becomes valid in the future"],
    ];
    for (const [fields, message] of cases) {
      const { error } = await client(enabled).signInWithWeb3(await signed(account, fields));
      expect(error, message).toMatchObject({ status: 400, message });
    }
  });

  it("refuses a bad signature, another key's signature, a malformed message and another chain", async () => {
    const account = privateKeyToAccount(generatePrivateKey());
    const good = await signed(account);
    const mismatch = "Signature does not match address in message";
    const tampered = { ...good, message: good.message.replace("Nonce: n0nce1234567", "Nonce: n0nce7654321") };
    expect((await client(enabled).signInWithWeb3(tampered)).error).toMatchObject({
      status: 400,
      message: mismatch,
    });
    const stranger = privateKeyToAccount(generatePrivateKey());
    const foreign = { ...good, signature: await stranger.signMessage({ message: good.message }) };
    expect((await client(enabled).signInWithWeb3(foreign)).error).toMatchObject({
      status: 400,
      message: mismatch,
    });
    const garbage = { ...good, signature: "0x1234" as Hex };
    expect((await client(enabled).signInWithWeb3(garbage)).error).toMatchObject({
      status: 400,
      code: "validation_failed",
      message: "signature must be 65 bytes long, encoded as a 130 character-long hexadecimal string",
    });
    const unprefixed = { ...good, signature: good.signature.slice(2) as Hex };
    expect((await client(enabled).signInWithWeb3(unprefixed)).error).toMatchObject({
      status: 400,
      message: mismatch,
    });
    const noIssuedAt = good.message.replace(/\nIssued At: [^\n]*/, "");
    const unparsable = {
      ...good,
      message: noIssuedAt,
      signature: await account.signMessage({ message: noIssuedAt }),
    };
    expect((await client(enabled).signInWithWeb3(unparsable)).error).toMatchObject({
      status: 400,
      code: "validation_failed",
      message: "siwe: Issued At is not specified",
    });
    const res = await fetch(`${enabled.url}/token?grant_type=web3`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-supabase-api-version": "2024-01-01" },
      body: JSON.stringify({ ...good, chain: "bitcoin" }),
    });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ code: "web3_unsupported_chain", message: "Unsupported chain" });
    const solana = await fetch(`${enabled.url}/token?grant_type=web3`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-supabase-api-version": "2024-01-01" },
      body: JSON.stringify({ ...good, chain: "solana" }),
    });
    expect(solana.status).toBe(422);
    expect(await solana.json()).toMatchObject({
      code: "web3_provider_disabled",
      message: "Solana Web3 provider is disabled",
    });
    // None of these spent the good message.
    expect((await client(enabled).signInWithWeb3(good)).error).toBeNull();
  });
});
