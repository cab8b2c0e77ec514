import { parseSiwsMessage } from "@authsvc/core/web3";
import { base58 } from "@scure/base";
import fc from "fast-check";
import { describe, expect, it } from "vitest";

/** The fields auth-js's `signInWithSolana` writes, generated. */
const fields = fc.record({
  domain: fc.constantFrom("app.example.com", "localhost:3000", "a-b.example.io:8443"),
  key: fc.uint8Array({ minLength: 32, maxLength: 32 }),
  statement: fc.option(
    fc.stringMatching(/^[A-Za-z0-9 .,!?'-]{1,80}$/).filter((s) => s.trim() !== "" && !s.includes(":")),
    { nil: undefined },
  ),
  issuedAt: fc.date({ min: new Date("2000-01-01Z"), max: new Date("2100-01-01Z"), noInvalidDate: true }),
  lifetimeMs: fc.option(fc.integer({ min: 0, max: 86_400_000 }), { nil: undefined }),
  chainId: fc.option(
    fc.constantFrom("solana:mainnet", "solana:devnet", "solana:testnet", "solana:localnet"),
    {
      nil: undefined,
    },
  ),
  nonce: fc.option(fc.stringMatching(/^[A-Za-z0-9]{8,32}$/), { nil: undefined }),
});

type Fields = typeof fields extends fc.Arbitrary<infer T> ? T : never;

/** The message as auth-js builds it for a wallet with `signMessage` (GoTrueClient `signInWithSolana`). */
function written(f: Fields) {
  const expiry = f.lifetimeMs === undefined ? null : new Date(f.issuedAt.getTime() + f.lifetimeMs);
  return [
    `${f.domain} wants you to sign in with your Solana account:`,
    base58.encode(f.key),
    ...(f.statement ? ["", f.statement, ""] : [""]),
    "Version: 1",
    `URI: https://${f.domain}/login`,
    `Issued At: ${f.issuedAt.toISOString()}`,
    ...(expiry ? [`Expiration Time: ${expiry.toISOString()}`] : []),
    ...(f.chainId ? [`Chain ID: ${f.chainId}`] : []),
    ...(f.nonce ? [`Nonce: ${f.nonce}`] : []),
  ].join("\n");
}

describe("parseSiwsMessage, over generated messages", () => {
  it("reads back every field auth-js writes", () => {
    fc.assert(
      fc.property(fields, (f) => {
        const parsed = parseSiwsMessage(written(f));
        expect(parsed.ok).toBe(true);
        if (!parsed.ok) return;
        expect(parsed.value).toMatchObject({
          domain: f.domain,
          address: base58.encode(f.key),
          statement: f.statement ?? null,
          issuedAt: f.issuedAt,
          chainId: f.chainId ?? null,
          nonce: f.nonce ?? null,
        });
        expect(parsed.value.uri.host).toBe(f.domain.split(":")[0]);
      }),
    );
  });

  it("answers every mangled message with a result, never a throw, and refuses a message without its header", () => {
    fc.assert(
      fc.property(fields, fc.nat(), fc.string({ unit: "binary", maxLength: 120 }), (f, at, junk) => {
        const lines = written(f).split("\n");
        const i = at % lines.length;
        lines[i] = junk;
        const parsed = parseSiwsMessage(lines.join("\n"));
        expect(typeof parsed.ok).toBe("boolean");
        if (i === 0 && !junk.endsWith(" wants you to sign in with your Solana account:")) {
          expect(parsed.ok).toBe(false);
        }
      }),
    );
  });
});
