import type { IdTokenSigner } from "@authsvc/core/oauth-server";
import { decodeProtectedHeader, type JWTPayload, jwtVerify, SignJWT } from "jose";
import type { JwtKeyRing } from "./jwt-keys.js";

/**
 * The `IdTokenSigner` of `JWT_KEYS`: the ring's signing key when it is asymmetric, so that a relying
 * party verifies ID tokens with the public keys of `/.well-known/jwks.json`. A shared secret cannot
 * sign them (every client would need it to verify, and could then forge): without such a key the
 * signer is not available.
 */
export function idTokenSigner(ring: JwtKeyRing | undefined): IdTokenSigner {
  const signing = ring?.signing;
  if (ring === undefined || signing === undefined || signing.alg === "HS256") {
    return {
      available: false,
      sign: () => Promise.reject(new Error("ID tokens need an asymmetric signing key (JWT_KEYS)")),
      verifyOwn: async () => null,
    };
  }
  return {
    available: true,
    sign: (claims, options) =>
      new SignJWT({ ...claims, aud: [...claims.aud] } as JWTPayload)
        .setProtectedHeader({ alg: signing.alg, kid: signing.kid, typ: options?.type ?? "JWT" })
        .sign(signing.signingKey),
    async verifyOwn(token) {
      let header: ReturnType<typeof decodeProtectedHeader>;
      try {
        header = decodeProtectedHeader(token);
      } catch {
        return null;
      }
      // A logout token (typ logout+jwt) is no ID token, whoever presents it.
      if (header.typ !== undefined && header.typ !== "JWT") return null;
      const key = typeof header.kid === "string" ? ring.byKid.get(header.kid) : undefined;
      if (key === undefined || key.alg === "HS256" || key.publicJwk === undefined) return null;
      try {
        // Expired or not: `exp` is compared with a date before any token's.
        const { payload } = await jwtVerify(token, key.verifyingKey, {
          algorithms: [key.alg],
          currentDate: new Date(0),
        });
        return payload;
      } catch {
        return null;
      }
    },
  };
}
