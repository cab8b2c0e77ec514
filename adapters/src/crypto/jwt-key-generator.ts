import { generateKeyPairSync, randomBytes, randomUUID } from "node:crypto";
import { type JwtKeyAlgorithm, LEAST_SYMMETRIC_KEY_BYTES } from "./jwt-keys.js";

export interface NewJwtKeyOptions {
  /** false: a standby key (`key_ops: ["verify"]`), published before it starts signing. Default true. */
  readonly signs?: boolean;
  /** Default: a random UUID, as `supabase gen signing-key`. */
  readonly kid?: string;
}

/** The private key material of a new key as a JWK, without the members we set ourselves. */
function material(alg: JwtKeyAlgorithm): Record<string, unknown> {
  switch (alg) {
    case "HS256":
      return { kty: "oct", k: randomBytes(LEAST_SYMMETRIC_KEY_BYTES).toString("base64url") };
    case "RS256":
    case "RS512":
      return generateKeyPairSync("rsa", { modulusLength: 2048 }).privateKey.export({ format: "jwk" });
    case "ES256":
      return generateKeyPairSync("ec", { namedCurve: "P-256" }).privateKey.export({ format: "jwk" });
    case "ES512":
      return generateKeyPairSync("ec", { namedCurve: "P-521" }).privateKey.export({ format: "jwk" });
    case "EdDSA":
      return generateKeyPairSync("ed25519").privateKey.export({ format: "jwk" });
  }
}

/**
 * A new private JWK for `JWT_KEYS`, shaped as the reference's `supabase gen signing-key` shapes it:
 * `kid` (a UUID), `use: "sig"`, `key_ops` (`["sign","verify"]`, or `["verify"]` for a standby key),
 * `alg`, `ext: true`, then the key material.
 */
export function generateJwtKey(
  alg: JwtKeyAlgorithm,
  options: NewJwtKeyOptions = {},
): Record<string, unknown> {
  const { kty, ...rest } = material(alg);
  return {
    kty,
    kid: options.kid ?? randomUUID(),
    use: "sig",
    key_ops: options.signs === false ? ["verify"] : ["sign", "verify"],
    alg,
    ext: true,
    ...rest,
  };
}
