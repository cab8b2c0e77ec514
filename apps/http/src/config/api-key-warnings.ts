import type { Config } from "./types.js";

/**
 * What start says when the configured keys would refuse the API keys in use. Supabase-style API keys
 * are HS256 tokens without a `kid`, signed with JWT_SECRET; a JWT_KEYS set without any HS256 key
 * refuses every such token (adapters/src/crypto/key-ring-signer.ts), so the existing `anon` and
 * `service_role` keys would answer `403 bad_jwt` without anything else saying why.
 */
export function apiKeyWarnings(config: Pick<Config, "jwt">): string[] {
  const ring = config.jwt.keys;
  if (ring === undefined) return [];
  if ([...ring.byKid.values()].some((key) => key.alg === "HS256")) return [];
  return [
    "AUTHSVC_JWT_KEYS holds no HS256 key: API keys and tokens signed with AUTHSVC_JWT_SECRET no longer verify (403 bad_jwt). Make new API keys with 'authsvc api-keys', or keep the secret as a verify-only key ('authsvc keys' adds it to a new set)",
  ];
}
