import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type FreshNamespace, migratedNamespace } from "@authsvc/adapters/testing";
import { productionServerEnv } from "@authsvc/http/testing";
import { ed25519 } from "@noble/curves/ed25519";
import { base58 } from "@scure/base";
import { GoTrueClient } from "@supabase/auth-js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ServerProcess, startServer } from "./support/server-process.js";

/** Sign in with Solana on the built server, through auth-js's `signInWithWeb3`, with keys made here. */
const SITE = "https://app.example.com";
const cwd = mkdtempSync(join(tmpdir(), "authsvc-solana-"));
let ns: FreshNamespace;
let solanaOnly: ServerProcess;
let bothChains: ServerProcess;

beforeAll(async () => {
  ns = await migratedNamespace();
  const solana = {
    AUTHSVC_SITE_URL: SITE,
    // The usual development entry: a message for another site must not sign in through it.
    AUTHSVC_URI_ALLOW_LIST: "http://localhost:3000/**",
    AUTHSVC_EXTERNAL_WEB3_SOLANA_ENABLED: "true",
    AUTHSVC_EXTERNAL_WEB3_SOLANA_MAXIMUM_VALIDITY_DURATION: "5m",
  };
  [solanaOnly, bothChains] = await Promise.all([
    startServer(productionServerEnv(ns, solana), { cwd }),
    // A second instance on the same database, with Ethereum on too.
    startServer(productionServerEnv(ns, { ...solana, AUTHSVC_EXTERNAL_WEB3_ETHEREUM_ENABLED: "true" }), {
      cwd,
    }),
  ]);
});

afterAll(async () => {
  await Promise.all([solanaOnly?.stop(), bothChains?.stop()]);
  await ns?.drop();
  rmSync(cwd, { recursive: true, force: true });
});

const client = (server: ServerProcess) =>
  new GoTrueClient({ url: server.url, autoRefreshToken: false, persistSession: false });

type Web3Credentials = Parameters<GoTrueClient["signInWithWeb3"]>[0];

/** An Ed25519 key pair as a Solana wallet holds it. */
function keyPair() {
  const secret = ed25519.utils.randomPrivateKey();
  const publicKey = ed25519.getPublicKey(secret);
  return { secret, address: base58.encode(publicKey) };
}
type KeyPair = ReturnType<typeof keyPair>;

/** A wallet with `signMessage` and `publicKey.toBase58()` (Phantom's legacy API): auth-js writes the message. */
function signMessageWallet(key: KeyPair) {
  return {
    publicKey: { toBase58: () => key.address },
    signMessage: async (message: Uint8Array) => ed25519.sign(message, key.secret),
  };
}

/** A Wallet Standard `solana:signIn` wallet: it writes the message itself, with the fields auth-js asks for. */
function signInWallet(key: KeyPair) {
  return {
    signIn: async (input: Record<string, string | undefined>) => {
      const lines = [
        `${input.domain} wants you to sign in with your Solana account:`,
        key.address,
        "",
        ...(input.statement ? [input.statement, ""] : []),
        `URI: ${input.uri}`,
        `Version: ${input.version}`,
        ...(input.chainId ? [`Chain ID: ${input.chainId}`] : []),
        `Issued At: ${input.issuedAt}`,
      ];
      const signedMessage = new TextEncoder().encode(lines.join("\n"));
      return [{ signedMessage, signature: ed25519.sign(signedMessage, key.secret) }];
    },
  };
}

interface MessageFields {
  domain?: string;
  uri?: string;
  issuedAt?: Date;
  expirationTime?: Date;
  notBefore?: Date;
  chainId?: string;
  header?: string;
}

/** A signed Sign-In with Solana message, sent as auth-js sends a pre-signed one. */
function signed(key: KeyPair, fields: MessageFields = {}) {
  const domain = fields.domain ?? "app.example.com";
  const message = [
    fields.header ?? `${domain} wants you to sign in with your Solana account:`,
    key.address,
    "",
    "Version: 1",
    `URI: ${fields.uri ?? `${SITE}/login`}`,
    `Issued At: ${(fields.issuedAt ?? new Date()).toISOString()}`,
    ...(fields.expirationTime ? [`Expiration Time: ${fields.expirationTime.toISOString()}`] : []),
    ...(fields.notBefore ? [`Not Before: ${fields.notBefore.toISOString()}`] : []),
    ...(fields.chainId ? [`Chain ID: ${fields.chainId}`] : []),
    "Nonce: n0nce1234567",
  ].join("\n");
  const signature = ed25519.sign(new TextEncoder().encode(message), key.secret);
  return { chain: "solana" as const, message, signature };
}

/** The grant as a raw request; a signature in bytes is sent as auth-js sends it (base64url, unpadded). */
async function postWeb3(server: ServerProcess, body: Record<string, unknown>) {
  const { signature } = body;
  const wire = signature instanceof Uint8Array ? Buffer.from(signature).toString("base64url") : signature;
  const res = await fetch(`${server.url}/token?grant_type=web3`, {
    method: "POST",
    headers: { "content-type": "application/json", "x-supabase-api-version": "2024-01-01" },
    body: JSON.stringify({ ...body, signature: wire }),
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

describe("Sign in with Solana", () => {
  it("signs in through auth-js with a signMessage wallet as web3:solana:<address>, and again as the same user", async () => {
    const key = keyPair();
    const first = await client(solanaOnly).signInWithWeb3({
      chain: "solana",
      wallet: signMessageWallet(key),
      statement: "Sign in to the example app",
      options: { url: `${SITE}/login`, signInWithSolana: { chainId: "solana:devnet" } },
    } as Web3Credentials);
    expect(first.error).toBeNull();
    expect(first.data.session?.access_token).toBeTruthy();
    const user = first.data.user;
    expect(user?.email ?? "").toBe("");
    expect(user?.identities).toEqual([
      expect.objectContaining({
        provider: "web3",
        id: `web3:solana:${key.address}`,
        identity_data: expect.objectContaining({
          sub: `web3:solana:${key.address}`,
          custom_claims: {
            address: key.address,
            chain: "solana",
            network: "solana:devnet",
            domain: "app.example.com",
            statement: "Sign in to the example app",
          },
        }),
      }),
    ]);
    expect(user?.app_metadata).toMatchObject({ provider: "web3" });
    const claims = JSON.parse(
      Buffer.from(first.data.session?.access_token.split(".")[1] ?? "", "base64url").toString(),
    );
    expect(claims.amr).toEqual([expect.objectContaining({ method: "web3" })]);

    // A Wallet Standard wallet writing its own message, on the other instance: the same account.
    const second = await client(bothChains).signInWithWeb3({
      chain: "solana",
      wallet: signInWallet(key),
      options: { url: `${SITE}/login` },
    } as Web3Credentials);
    expect(second.error).toBeNull();
    expect(second.data.user?.id).toBe(user?.id);
  });

  it("refuses a replayed message, on this instance and on another", async () => {
    const credentials = signed(keyPair());
    expect((await client(solanaOnly).signInWithWeb3(credentials)).error).toBeNull();
    for (const server of [solanaOnly, bothChains]) {
      const replayed = await client(server).signInWithWeb3(credentials);
      expect(replayed.error).toMatchObject({
        status: 400,
        message: "Signed Solana message was already used to sign in",
      });
      expect(replayed.data.session).toBeNull();
    }
  });

  it("lets one of 8 concurrent sends of a message in, and 8 concurrent first sign-ins of a wallet make one user", async () => {
    const credentials = signed(keyPair());
    const servers = [solanaOnly, bothChains];
    const same = await Promise.all(
      Array.from({ length: 8 }, (_, i) => postWeb3(servers[i % 2] as ServerProcess, credentials)),
    );
    expect(same.map((r) => r.status).sort(), JSON.stringify(same.map((r) => r.body))).toEqual([
      200, 400, 400, 400, 400, 400, 400, 400,
    ]);
    const key = keyPair();
    const firsts = await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        postWeb3(servers[i % 2] as ServerProcess, signed(key, { issuedAt: new Date(Date.now() - i * 1000) })),
      ),
    );
    expect(firsts.map((r) => r.status)).toEqual(Array(8).fill(200));
    const ids = new Set(firsts.map((r) => (r.body.user as { id: string }).id));
    expect(ids.size).toBe(1);
  });

  it("refuses a wrong domain, a URI off the allow list or without https, and messages out of their time", async () => {
    const key = keyPair();
    const minute = 60_000;
    const cases: [MessageFields, string][] = [
      [
        { domain: "evil.example.net" },
        "Signed Solana message is using a Domain that does not match the one in URI which is not allowed on this server",
      ],
      [
        { domain: "evil.example.net", uri: "http://localhost:3000/login" },
        "Signed Solana message is using a Domain that does not match the one in URI which is not allowed on this server",
      ],
      [
        { domain: "evil.example.net", uri: "https://evil.example.net/" },
        "Signed Solana message is using URI which is not allowed on this server, message was signed for another app",
      ],
      [
        { uri: "http://app.example.com/login" },
        "Signed Solana message is using URI which does not use HTTPS",
      ],
      [
        { issuedAt: new Date(Date.now() - minute), expirationTime: new Date(Date.now() - 1000) },
        "Signed Solana message is expired",
      ],
      [{ notBefore: new Date(Date.now() + minute) }, "Signed Solana message becomes valid in the future"],
      // The Solana validity is 5 minutes here.
      [{ issuedAt: new Date(Date.now() - 6 * minute) }, "Solana message was issued too long ago"],
      [{ issuedAt: new Date(Date.now() + 6 * minute) }, "Solana message was issued too far in the future"],
    ];
    for (const [fields, message] of cases) {
      const { data, error } = await client(solanaOnly).signInWithWeb3(signed(key, fields));
      expect(error, message).toMatchObject({ status: 400, message });
      expect(data.session).toBeNull();
    }
  });

  it("refuses another cluster's or chain's Chain ID and an Ethereum message", async () => {
    const key = keyPair();
    for (const chainId of ["solana:fakenet", "1", "mainnet"]) {
      const { error } = await client(solanaOnly).signInWithWeb3(signed(key, { chainId }));
      expect(error, chainId).toMatchObject({
        status: 400,
        code: "validation_failed",
        message: "siws: Chain ID is not valid",
      });
    }
    const ethereum = signed(key, {
      header: "app.example.com wants you to sign in with your Ethereum account:",
    });
    expect((await client(solanaOnly).signInWithWeb3(ethereum)).error).toMatchObject({
      status: 400,
      code: "validation_failed",
      message: 'siws: message first line does not end in " wants you to sign in with your Solana account:"',
    });
  });

  it("refuses a bad signature, another key's, and malformed ones, without spending the message", async () => {
    const key = keyPair();
    const good = signed(key);
    const mismatch = { status: 400, message: "Signature does not match address in message" };
    const tampered = { ...good, message: good.message.replace("n0nce1234567", "n0nce7654321") };
    expect((await client(solanaOnly).signInWithWeb3(tampered)).error).toMatchObject(mismatch);
    const foreign = {
      ...good,
      signature: ed25519.sign(new TextEncoder().encode(good.message), keyPair().secret),
    };
    expect((await client(solanaOnly).signInWithWeb3(foreign)).error).toMatchObject(mismatch);
    const flipped = Uint8Array.from(good.signature);
    flipped[0] = (flipped[0] ?? 0) ^ 0x80;
    expect((await client(solanaOnly).signInWithWeb3({ ...good, signature: flipped })).error).toMatchObject(
      mismatch,
    );
    const short = await client(solanaOnly).signInWithWeb3({ ...good, signature: new Uint8Array([1, 2, 3]) });
    expect(short.error).toMatchObject({
      status: 400,
      code: "validation_failed",
      message: "signature must be 64 bytes encoded as base64 with or without padding",
    });
    const notBase64 = await postWeb3(solanaOnly, { ...good, signature: `${"*".repeat(86)}` });
    expect(notBase64).toMatchObject({
      status: 400,
      body: { code: "validation_failed", message: "signature does not contain valid base64 characters" },
    });
    // As base64 with padding, as other clients send it: the same signature, accepted.
    const padded = await postWeb3(solanaOnly, {
      ...good,
      signature: Buffer.from(good.signature).toString("base64"),
    });
    expect(padded.status).toBe(200);
  });
});

describe("Which chains answer", () => {
  it("answers Ethereum 'Ethereum Web3 provider is disabled' when only Solana is on, and other chains 'Unsupported chain'", async () => {
    const { data, error } = await client(solanaOnly).signInWithWeb3({
      chain: "ethereum",
      message: "test message",
      signature: "0x00",
    } as Web3Credentials);
    expect(data.session).toBeNull();
    expect(error).toMatchObject({
      status: 422,
      code: "web3_provider_disabled",
      message: "Ethereum Web3 provider is disabled",
    });
    const bitcoin = await postWeb3(solanaOnly, { chain: "bitcoin", message: "m", signature: "s" });
    expect(bitcoin).toMatchObject({
      status: 400,
      body: { code: "web3_unsupported_chain", message: "Unsupported chain" },
    });
  });
});
