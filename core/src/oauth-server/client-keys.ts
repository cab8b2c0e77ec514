import { ok, type Result } from "../kernel/index.js";
import { type ClientAuthMethod, type ClientJwks, isHttpUrl, type OAuthClient } from "./client.js";
import { type ClientFields, invalidField as invalid } from "./client-field-checks.js";

/** Members of a JWK that only a private or symmetric key has: never registered. */
const PRIVATE_MEMBERS = ["d", "p", "q", "dp", "dq", "qi", "oth", "k"];
const MAX_JWKS_KEYS = 20;
const MAX_JWKS_CHARS = 16384;

/** RFC 7591 `jwks`: a key set of at most 20 public keys (no private or symmetric member), at most 16 KiB. */
export function checkJwks(jwks: unknown): Result<ClientJwks | null> {
  if (jwks === undefined || jwks === null) return ok(null);
  if (typeof jwks !== "object" || Array.isArray(jwks)) return invalid("jwks must be a JSON Web Key Set");
  const keys = (jwks as { keys?: unknown }).keys;
  if (!Array.isArray(keys) || keys.length === 0) return invalid("jwks must hold a non-empty keys array");
  if (keys.length > MAX_JWKS_KEYS) return invalid(`jwks must not hold more than ${MAX_JWKS_KEYS} keys`);
  if (JSON.stringify(jwks).length > MAX_JWKS_CHARS) return invalid("jwks is too large");
  for (const key of keys) {
    if (typeof key !== "object" || key === null || Array.isArray(key) || typeof key.kty !== "string")
      return invalid("every key of jwks must be a JWK with kty");
    if (key.kty === "oct" || PRIVATE_MEMBERS.some((m) => m in key))
      return invalid("jwks must hold public keys only");
  }
  return ok({ keys: keys as ClientJwks["keys"] });
}

/** RFC 7591 `jwks_uri`: an absolute https URL (the fetch refuses private addresses too). */
export function checkJwksUri(uri: string | null | undefined): Result<string | null> {
  if (uri === undefined || uri === null || uri === "") return ok(null);
  if (!isHttpUrl(uri, 2048))
    return invalid("jwks_uri must be an absolute https URL (plain http reaches loopback only in tests)");
  return ok(uri);
}

/**
 * The keys of a method: `private_key_jwt` needs exactly one of `jwks` and `jwks_uri` (RFC 7591 §2);
 * the other methods have none.
 */
export function checkKeys(
  method: ClientAuthMethod,
  jwks: ClientJwks | null,
  jwksUri: string | null,
): Result<void> {
  if (jwks !== null && jwksUri !== null) return invalid("jwks and jwks_uri must not both be given");
  if (method === "private_key_jwt" && jwks === null && jwksUri === null)
    return invalid("private_key_jwt needs jwks or jwks_uri");
  if (method !== "private_key_jwt" && (jwks !== null || jwksUri !== null))
    return invalid("jwks and jwks_uri are for token_endpoint_auth_method 'private_key_jwt'");
  return ok(undefined);
}
/**
 * A client's keys after an admin's update: a new `jwks` replaces a `jwks_uri` and the reverse unless
 * both are given, another method than `private_key_jwt` drops them, and the result fits the method.
 */
export function keysAfterUpdate(
  client: Pick<OAuthClient, "jwks" | "jwksUri">,
  fields: Pick<ClientFields, "jwks" | "jwksUri" | "authMethod">,
  authMethod: ClientAuthMethod,
): Result<{ jwks: ClientJwks | null; jwksUri: string | null }> {
  let jwks = client.jwks ?? null;
  let jwksUri = client.jwksUri ?? null;
  if (fields.jwks !== undefined) {
    const checked = checkJwks(fields.jwks);
    if (!checked.ok) return checked;
    jwks = checked.value;
    if (jwks !== null && fields.jwksUri === undefined) jwksUri = null;
  }
  if (fields.jwksUri !== undefined) {
    const checked = checkJwksUri(fields.jwksUri);
    if (!checked.ok) return checked;
    jwksUri = checked.value;
    if (jwksUri !== null && fields.jwks === undefined) jwks = null;
  }
  // Keys belong to private_key_jwt alone: another method drops them.
  if (
    fields.authMethod !== undefined &&
    authMethod !== "private_key_jwt" &&
    fields.jwks === undefined &&
    fields.jwksUri === undefined
  ) {
    jwks = null;
    jwksUri = null;
  }
  const keys = checkKeys(authMethod, jwks, jwksUri);
  return keys.ok ? ok({ jwks, jwksUri }) : keys;
}
