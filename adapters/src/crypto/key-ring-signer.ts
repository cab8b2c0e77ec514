import type { Clock } from "@authsvc/core/kernel";
import type { TokenSigner } from "@authsvc/core/sessions";
import { decodeProtectedHeader, type JWTPayload, jwtVerify, SignJWT } from "jose";
import { hs256Signer } from "./hs256-signer.js";
import type { JwtKeyRing } from "./jwt-keys.js";

/**
 * The `TokenSigner` of `JWT_KEYS`: the ring's signing key signs, with its `kid` in the header; every
 * key of the ring verifies the tokens that name its `kid`, with that key's own algorithm only — the
 * header's `alg` never chooses the algorithm, so an HMAC token cannot pass as an RSA one keyed with
 * the public key (key confusion), and `none` never passes.
 *
 * A token naming no kid, or a kid the ring does not hold, is verified as the reference does
 * (internal/api/auth.go `parseJWTClaims`): when it is HS256 and the ring allows HS256 (one of its keys
 * is HS256 — the reference's default `JWT_VALID_METHODS`), with `JWT_SECRET`, through the same
 * verifier as without a ring. So a ring of asymmetric keys alone refuses tokens signed with
 * `JWT_SECRET`, API keys included; listing the secret as a verify-only `oct` key keeps them valid.
 */
export function keyRingSigner(ring: JwtKeyRing, options: { secret: string; clock?: Clock }): TokenSigner {
  const { clock } = options;
  const { signing } = ring;
  const header = { alg: signing.alg, kid: signing.kid, typ: "JWT" };
  const allowsHs256 = [...ring.byKid.values()].some((key) => key.alg === "HS256");
  const secretVerify = allowsHs256 ? hs256Signer(options.secret, options).verify : undefined;
  return {
    sign: (claims) =>
      // A spread keeps the claims' order (sub, aud, exp, iat, …), which is GoTrue's JSON order.
      new SignJWT({ ...claims } as JWTPayload).setProtectedHeader(header).sign(signing.signingKey),
    async verify(token) {
      let kid: unknown;
      let alg: unknown;
      try {
        ({ kid, alg } = decodeProtectedHeader(token));
      } catch {
        return null;
      }
      const key = typeof kid === "string" ? ring.byKid.get(kid) : undefined;
      if (key === undefined) return alg === "HS256" && secretVerify ? secretVerify(token) : null;
      try {
        const { payload } = await jwtVerify(token, key.verifyingKey, {
          algorithms: [key.alg],
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

/** The JSON Web Key Set of a ring: the public keys, never a symmetric one. */
export function publicJwks(ring: JwtKeyRing): { keys: Readonly<Record<string, unknown>>[] } {
  const keys = [...ring.byKid.values()].flatMap((key) => (key.publicJwk ? [key.publicJwk] : []));
  return { keys };
}
