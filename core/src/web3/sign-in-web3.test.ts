import { describe, expect, it } from "vitest";
import { fakeDeps } from "../testing/index.js";
import { signInWithWeb3 } from "./sign-in-web3.js";

const ON = { enabled: true, maxValidityMs: 600_000 };
const OFF = { enabled: false, maxValidityMs: 600_000 };
const ADDRESS = "8Ra1ZBm3PMxY2dvmsGjx8Jr7BwLZUR3b5tLnTiSTTVxn";
/** What a wallet's 64-byte signature looks like in base64url, unpadded (as auth-js sends it). */
const SIGNATURE = "A".repeat(86);

const solanaMessage = (issuedAt: string, domain = "localhost:3000", uri = "http://localhost:3000/login") =>
  [
    `${domain} wants you to sign in with your Solana account:`,
    ADDRESS,
    "",
    "Version: 1",
    `URI: ${uri}`,
    `Issued At: ${issuedAt}`,
  ].join("\n");

const ETHEREUM_ADDRESS = "0x71C7656EC7ab88b098defB751B7401B5f6d8976F";
const ethereumMessage = (issuedAt: string, domain: string, uri: string) =>
  [
    `${domain} wants you to sign in with your Ethereum account:`,
    ETHEREUM_ADDRESS,
    "",
    `URI: ${uri}`,
    "Version: 1",
    "Chain ID: 1",
    "Nonce: n0nce1234567",
    `Issued At: ${issuedAt}`,
  ].join("\n");
const ETHEREUM_SIGNATURE = `0x${"1".repeat(130)}`;

/** Deps where only the signature `SIGNATURE` of any message is the wallet's. */
function depsWith(chains: { ethereum?: typeof ON; solana?: typeof ON }) {
  const deps = fakeDeps({ web3: { ethereum: chains.ethereum ?? OFF, solana: chains.solana ?? OFF } });
  return {
    ...deps,
    wallets: {
      ethereum: async (_m: string, s: string) => s === ETHEREUM_SIGNATURE,
      solana: async (_m: string, s: string) => s === SIGNATURE,
    },
  };
}

const refusal = (code: string, message: string) => ({
  ok: false,
  error: expect.objectContaining({ code, message }),
});

describe("signInWithWeb3: which chains answer", () => {
  it.each([
    [{}, "solana", refusal("web3_provider_disabled", "Web3 provider is disabled")],
    [{}, "ethereum", refusal("web3_provider_disabled", "Web3 provider is disabled")],
    [{}, "bitcoin", refusal("web3_provider_disabled", "Web3 provider is disabled")],
    [{ ethereum: ON }, "solana", refusal("web3_provider_disabled", "Solana Web3 provider is disabled")],
    [{ solana: ON }, "ethereum", refusal("web3_provider_disabled", "Ethereum Web3 provider is disabled")],
    [{ solana: ON }, "bitcoin", refusal("web3_unsupported_chain", "Unsupported chain")],
    [{ solana: ON }, "constructor", refusal("web3_unsupported_chain", "Unsupported chain")],
  ])("with %o on, chain %s is answered as the reference", async (chains, chain, expected) => {
    const deps = depsWith(chains);
    const message = solanaMessage(deps.clock.now().toISOString());
    expect(await signInWithWeb3(deps, { chain, message, signature: SIGNATURE })).toMatchObject(expected);
  });
});

describe("signInWithWeb3 with Solana", () => {
  it("signs in as web3:solana:<address>, then refuses the same message again", async () => {
    const deps = depsWith({ solana: ON });
    const input = {
      chain: "solana",
      message: solanaMessage(deps.clock.now().toISOString()),
      signature: SIGNATURE,
    };
    const first = await signInWithWeb3(deps, input);
    expect(first.ok).toBe(true);
    if (!first.ok) return;
    expect(first.value.user.identities).toEqual([
      expect.objectContaining({
        provider: "web3",
        providerId: `web3:solana:${ADDRESS}`,
        identityData: expect.objectContaining({
          custom_claims: {
            address: ADDRESS,
            chain: "solana",
            network: "",
            domain: "localhost:3000",
            statement: "",
          },
        }),
      }),
    ]);
    expect(await signInWithWeb3(deps, input)).toMatchObject(
      refusal("validation_failed", "Signed Solana message was already used to sign in"),
    );
  });

  it.each([
    ["A".repeat(85), "signature must be 64 bytes encoded as base64 with or without padding"],
    ["A".repeat(87), "signature must be 64 bytes encoded as base64 with or without padding"],
    [`${"A".repeat(85)}!`, "signature does not contain valid base64 characters"],
    [`${"A".repeat(86)}=A`, "signature does not contain valid base64 characters"],
  ])("refuses the signature %s before reading the message", async (signature, sentence) => {
    const deps = depsWith({ solana: ON });
    const message = solanaMessage(deps.clock.now().toISOString());
    expect(await signInWithWeb3(deps, { chain: "solana", message, signature })).toMatchObject(
      refusal("validation_failed", sentence),
    );
  });

  it("refuses another signature, and a message issued longer ago than the Solana validity", async () => {
    const deps = depsWith({ solana: { enabled: true, maxValidityMs: 60_000 } });
    const now = deps.clock.now().getTime();
    const fresh = solanaMessage(new Date(now).toISOString());
    expect(
      await signInWithWeb3(deps, { chain: "solana", message: fresh, signature: "B".repeat(86) }),
    ).toMatchObject(refusal("validation_failed", "Signature does not match address in message"));
    const old = solanaMessage(new Date(now - 61_000).toISOString());
    expect(await signInWithWeb3(deps, { chain: "solana", message: old, signature: SIGNATURE })).toMatchObject(
      refusal("validation_failed", "Solana message was issued too long ago"),
    );
  });
});

describe("signInWithWeb3: the message's domain", () => {
  const mismatch = (label: string) =>
    refusal(
      "validation_failed",
      `Signed ${label} message is using a Domain that does not match the one in URI which is not allowed on this server`,
    );
  const signIn = (chain: "solana" | "ethereum", domain: string, uri: string, allowList: string[] = []) => {
    const deps = depsWith({ solana: ON, ethereum: ON });
    const settings = { ...deps.settings, siteUrl: "http://localhost:3000", uriAllowList: allowList };
    const now = deps.clock.now().toISOString();
    return chain === "solana"
      ? signInWithWeb3(
          { ...deps, settings },
          { chain, message: solanaMessage(now, domain, uri), signature: SIGNATURE },
        )
      : signInWithWeb3(
          { ...deps, settings },
          { chain, message: ethereumMessage(now, domain, uri), signature: ETHEREUM_SIGNATURE },
        );
  };

  // A wallet signs a message for the site that asks (evil.test); a URI on the loopback must not make
  // that signature good here, where SITE_URL or the allow list holds the usual development URL.
  it.each([
    ["solana", "evil.test", "http://localhost:3000/login", []],
    ["ethereum", "evil.test", "http://localhost:3000/login", []],
    ["solana", "evil.test:3000", "http://localhost:3000/", []],
    ["ethereum", "evil.test", "http://localhost:5173/cb", ["http://localhost:5173/**"]],
    ["solana", "localhost:4000", "http://localhost:3000/login", []],
    ["ethereum", "localhost", "http://localhost:3000/login", []],
  ] as const)("%s: refuses the domain %s with the URI %s", async (chain, domain, uri, allowList) => {
    const label = chain === "solana" ? "Solana" : "Ethereum";
    expect(await signIn(chain, domain, uri, [...allowList])).toMatchObject(mismatch(label));
  });

  it.each([
    ["solana", "localhost:3000", "http://localhost:3000/login"],
    ["ethereum", "localhost:3000", "http://localhost:3000/login"],
  ] as const)("%s: signs in with the domain %s and the URI %s on the site", async (chain, domain, uri) => {
    expect((await signIn(chain, domain, uri)).ok).toBe(true);
  });
});
