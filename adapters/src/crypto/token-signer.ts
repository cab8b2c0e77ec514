import type { Clock, TokenSigner } from "@authsvc/core";
import { type JWTPayload, jwtVerify, SignJWT } from "jose";

/**
 * The production `TokenSigner`: HS256 JWTs keyed with `JWT_SECRET`, header `{alg:"HS256", typ:"JWT"}`.
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
    sign: (claims) =>
      // A spread keeps the claims' order (sub, aud, exp, iat, …), which is GoTrue's JSON order.
      new SignJWT({ ...claims } as JWTPayload).setProtectedHeader({ alg: "HS256", typ: "JWT" }).sign(key),
    async verify(token) {
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
