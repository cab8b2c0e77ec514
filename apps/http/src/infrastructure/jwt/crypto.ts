import {
  aesGcmSecretBox,
  argon2Hasher,
  hs256Signer,
  keyDerivedFromJwtSecret,
  keyRingSigner,
  publicJwks,
  secretTokens,
} from "@authsvc/adapters";
import type { AuthDeps } from "@authsvc/core";
import type { Config } from "../../config/types.js";

/** The password hasher (argon2id), its dummy hash built at once. */
export function hasherOf(): AuthDeps["hasher"] {
  const hasher = argon2Hasher();
  // Build the dummy hash now, so the first sign-in of an unknown user costs what every later one does.
  void hasher.verifyDummy("");
  return hasher;
}

/** The access token signer: the `JWT_KEYS` ring when set, else HS256 with `JWT_SECRET`. */
export const signerOf = (config: Config, clock: AuthDeps["clock"]): AuthDeps["signer"] =>
  config.jwt.keys === undefined
    ? hs256Signer(config.jwt.secret, { clock })
    : keyRingSigner(config.jwt.keys, { secret: config.jwt.secret, clock });

/** A JSON Web Key Set (RFC 7517 §5): the public keys that verify this server's access tokens. */
export interface Jwks {
  readonly keys: readonly Readonly<Record<string, unknown>>[];
}

/** What `/.well-known/jwks.json` serves: the ring's public keys; none with `JWT_SECRET` alone. */
export const jwksOf = (config: Config): Jwks =>
  config.jwt.keys === undefined ? { keys: [] } : publicJwks(config.jwt.keys);

/** Keyed hashing of one-time and refresh tokens. */
export const tokensOf = (config: Config): AuthDeps["tokens"] => secretTokens(config.jwt.secret);

/**
 * Encryption of MFA secrets at rest: `SECURITY_DB_ENCRYPTION_ENCRYPTION_KEY` when set, else a key
 * derived from `JWT_SECRET`. The derived key always stays among the decryption keys, so factors
 * enrolled before a key was configured keep working.
 */
export function secretBoxOf(config: Config): AuthDeps["secretBox"] {
  const derived = keyDerivedFromJwtSecret(config.jwt.secret);
  const configured = config.mfa.encryptionKey;
  const current = configured ? { id: configured.id, key: Buffer.from(configured.key, "base64url") } : derived;
  const older = Object.entries(config.mfa.decryptionKeys).map(([id, key]) => ({
    id,
    key: Buffer.from(key, "base64url"),
  }));
  return aesGcmSecretBox(current, [derived, ...older]);
}
