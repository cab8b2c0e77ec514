import { argon2Hasher, hs256Signer, keyRingSigner, publicJwks, secretTokens } from "@authsvc/adapters";
import type { AuthDeps } from "@authsvc/core";
import type { Config } from "../config.js";

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

/** What `/.well-known/jwks.json` serves: the ring's public keys; none with `JWT_SECRET` alone. */
export const jwksOf = (config: Config): { keys: Readonly<Record<string, unknown>>[] } =>
  config.jwt.keys === undefined ? { keys: [] } : publicJwks(config.jwt.keys);

/** Keyed hashing of one-time and refresh tokens. */
export const tokensOf = (config: Config): AuthDeps["tokens"] => secretTokens(config.jwt.secret);
