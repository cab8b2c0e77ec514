import type { DecodedProof, DpopNonces, DpopProofLedger, DpopProofReader } from "../../dpop/index.js";

/**
 * A proof reader over proofs minted in the test: `mint(decoded)` answers an opaque proof string that
 * `read` answers `decoded` for (as if its signature verified); any other string reads as null, as a
 * forged or malformed one would. `ath` is `ath(<token>)`.
 */
export function fakeDpopProofs(): DpopProofReader & { mint(decoded: DecodedProof): string } {
  const minted = new Map<string, DecodedProof>();
  return {
    mint(decoded) {
      const proof = `proof-${minted.size + 1}`;
      minted.set(proof, decoded);
      return proof;
    },
    read: async (proof, algorithms) => {
      const decoded = minted.get(proof) ?? null;
      return decoded !== null && algorithms.includes(decoded.alg) ? decoded : null;
    },
    accessTokenHash: (token) => `ath(${token})`,
  };
}

/** Nonces of five-minute windows, `nonce-<window>`: this window's and the previous one's are accepted. */
export function fakeDpopNonces(): DpopNonces {
  const windowOf = (now: Date) => Math.floor(now.getTime() / 300_000);
  return {
    current: (now) => `nonce-${windowOf(now)}`,
    accepts: (nonce, now) => nonce === `nonce-${windowOf(now)}` || nonce === `nonce-${windowOf(now) - 1}`,
  };
}

/** The ledger in memory: each key spent once (expiry is the cleanup's business, not the fake's). */
export function fakeDpopLedger(): DpopProofLedger & { readonly spent: Map<string, Date> } {
  const spent = new Map<string, Date>();
  return {
    spent,
    spend: async (key, expiresAt) => {
      if (spent.has(key)) return false;
      spent.set(key, expiresAt);
      return true;
    },
  };
}
