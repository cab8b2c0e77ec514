import type { IdTokenSigner } from "@authsvc/core/oauth-server";
import { type JWTPayload, SignJWT } from "jose";
import type { JwtKeyRing } from "./jwt-keys.js";

/**
 * The `IdTokenSigner` of `JWT_KEYS`: the ring's signing key when it is asymmetric, so that a relying
 * party verifies ID tokens with the public keys of `/.well-known/jwks.json`. A shared secret cannot
 * sign them (every client would need it to verify, and could then forge): without such a key the
 * signer is not available.
 */
export function idTokenSigner(ring: JwtKeyRing | undefined): IdTokenSigner {
  const signing = ring?.signing;
  if (signing === undefined || signing.alg === "HS256") {
    return {
      available: false,
      sign: () => Promise.reject(new Error("ID tokens need an asymmetric signing key (JWT_KEYS)")),
    };
  }
  const header = { alg: signing.alg, kid: signing.kid, typ: "JWT" };
  return {
    available: true,
    sign: (claims) =>
      new SignJWT({ ...claims, aud: [...claims.aud] } as JWTPayload)
        .setProtectedHeader(header)
        .sign(signing.signingKey),
  };
}
