import type { Clock } from "@authsvc/core/kernel";
import type { TokenSigner } from "@authsvc/core/sessions";
import { jwtVerify } from "jose";
import { signHs256, verifyHs256 } from "./hs256-fast.js";

/**
 * The `TokenSigner` without `JWT_KEYS`: HS256 JWTs keyed with `JWT_SECRET`, header `{alg:"HS256", typ:"JWT"}`.
 *
 * `verify` accepts only HS256 — never `none`, never another HMAC size, never an asymmetric algorithm
 * (which with a shared secret would be the classic key-confusion attack) — and requires an `exp`
 * in the future; it returns null, never throws, for everything else. `clock` (default: system time)
 * decides what "expired" means, so tests with a fixed clock verify the tokens they signed.
 */
export function hs256Signer(secret: string, options: { clock?: Clock } = {}): TokenSigner {
  if (secret.length === 0) throw new Error("hs256Signer: the JWT secret must not be empty");
  const key = new TextEncoder().encode(secret);
  const { clock } = options;
  return {
    // The claims' own order (sub, aud, exp, iat, …), which is GoTrue's JSON order; the bytes jose's
    // SignJWT would give (hs256-fast.ts), without WebCrypto's per-token key import and job.
    sign: async (claims) => signHs256({ ...claims }, key),
    async verify(token) {
      // Most tokens are ours: decided in place. Anything the fast path does not read goes to jose.
      const now = clock ? clock.now() : new Date();
      const fast = verifyHs256(token, key, Math.floor(now.getTime() / 1000));
      if (fast !== undefined) return fast?.payload ?? null;
      try {
        const { payload } = await jwtVerify(token, key, {
          algorithms: ["HS256"],
          requiredClaims: ["exp"],
          ...(clock ? { currentDate: clock.now() } : {}),
        });
        return payload;
      } catch {
        return null;
      }
    },
  };
}
