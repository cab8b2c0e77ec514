import { createHash, createHmac, hkdfSync, timingSafeEqual } from "node:crypto";
import type { DecodedProof, DpopNonces, DpopProofReader } from "@authsvc/core/dpop";
import { calculateJwkThumbprint, compactVerify, decodeProtectedHeader, EmbeddedJWK, type JWK } from "jose";

/** The members of a JWK that only a private (or symmetric) key has. */
const PRIVATE_MEMBERS = ["d", "p", "q", "dp", "dq", "qi", "oth", "k"];
/** The asymmetric key types a proof may carry. */
const PUBLIC_KEY_TYPES = new Set(["EC", "RSA", "OKP"]);

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/**
 * The production `DpopProofReader`, with jose: the proof's header must name an allowed `alg` and
 * carry a public `jwk` (an asymmetric key type, no private member), which must verify its signature
 * (jose's `EmbeddedJWK`, restricted to that one algorithm); its claims are answered as JSON, and the
 * key's RFC 7638 SHA-256 thumbprint.
 */
export function dpopProofReader(): DpopProofReader {
  return {
    async read(proof, algorithms) {
      try {
        const header = decodeProtectedHeader(proof);
        const { alg, jwk, typ } = header;
        if (typeof alg !== "string" || !algorithms.includes(alg) || alg.startsWith("HS") || alg === "none")
          return null;
        if (!isObject(jwk) || typeof jwk.kty !== "string" || !PUBLIC_KEY_TYPES.has(jwk.kty)) return null;
        if (PRIVATE_MEMBERS.some((member) => member in jwk)) return null;
        const verified = await compactVerify(proof, EmbeddedJWK, { algorithms: [alg] });
        const claims: unknown = JSON.parse(new TextDecoder().decode(verified.payload));
        if (!isObject(claims)) return null;
        const decoded: DecodedProof = {
          typ: typeof typ === "string" ? typ : "",
          alg,
          jkt: await calculateJwkThumbprint(jwk as JWK, "sha256"),
          claims,
        };
        return decoded;
      } catch {
        return null;
      }
    },
    accessTokenHash: (accessToken) => createHash("sha256").update(accessToken).digest("base64url"),
  };
}

const NONCE_KEY_INFO = "authsvc dpop nonce";

/**
 * The production `DpopNonces`: base64url(HMAC-SHA256(subkey, "dpop-nonce:" + window)), the window
 * being the number of `windowMs` periods since the epoch, so every instance with the same `key`
 * computes the same nonce and accepts it for one to two windows. The subkey is an HKDF-SHA256 subkey
 * of `key` (the JWT secret) of its own purpose.
 */
export function dpopNonces(key: string, windowMs: number): DpopNonces {
  if (key.length === 0) throw new Error("dpopNonces: the key must not be empty");
  if (!(windowMs > 0)) throw new Error("dpopNonces: the window must be positive");
  const subkey = Buffer.from(hkdfSync("sha256", key, new Uint8Array(0), NONCE_KEY_INFO, 32));
  const of = (window: number) =>
    createHmac("sha256", subkey).update(`dpop-nonce:${window}`).digest("base64url");
  const windowAt = (now: Date) => Math.floor(now.getTime() / windowMs);
  const same = (a: string, b: string) =>
    a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b));
  return {
    current: (now) => of(windowAt(now)),
    accepts: (nonce, now) => {
      const window = windowAt(now);
      // Both compared, whichever matches: the time taken says nothing about which.
      const current = same(nonce, of(window));
      const previous = same(nonce, of(window - 1));
      return current || previous;
    },
  };
}
