import { createHash, createHmac, hkdfSync, randomBytes } from "node:crypto";
import type { SecretTokens } from "@authsvc/core/kernel";

/** 18 bytes = 144 bits, exactly 24 base64url characters (no padding). */
const TOKEN_BYTES = 18;
const TOKEN_CHARS = 24;
const CHILD_KEY_INFO = "authsvc refresh token child";
const FLOW_KEY_INFO = "authsvc external sign-in browser binding";
/** 32 bytes = 256 bits of HMAC output, as 43 base64url characters. */
const BINDING_CHARS = 43;

/**
 * The production `SecretTokens` (refresh tokens).
 *
 * - `generate()`: 144 random bits from node:crypto as 24 base64url characters.
 * - `hash(token)`: lowercase hex SHA-256, the only form stored.
 * - `child(parent)`: base64url of HMAC-SHA256(subkey, "refresh-token-child:" + parent), cut to 24
 *   characters — the same length and alphabet as `generate()`, so children and fresh tokens look
 *   alike. It is deterministic (a client that lost a refresh answer can be handed the same child
 *   again) and unguessable without `key`: 144 bits of a PRF output.
 *
 * - `flowBinding(flowId)`: base64url of HMAC-SHA256(its own subkey, "flow-binding:" + flowId), whole.
 *
 * Each HMAC key is an HKDF-SHA256 subkey of `key` (info "authsvc refresh token child", "authsvc
 * external sign-in browser binding"), so the JWT secret passed in is never itself used as an HMAC key
 * and no two purposes share one.
 */
export function secretTokens(key: string): SecretTokens {
  if (key.length === 0) throw new Error("secretTokens: the key must not be empty");
  const subkey = Buffer.from(hkdfSync("sha256", key, new Uint8Array(0), CHILD_KEY_INFO, 32));
  const flowKey = Buffer.from(hkdfSync("sha256", key, new Uint8Array(0), FLOW_KEY_INFO, 32));
  return {
    generate: () => randomBytes(TOKEN_BYTES).toString("base64url"),
    hash: (token) => createHash("sha256").update(token).digest("hex"),
    child: (parent) =>
      createHmac("sha256", subkey)
        .update(`refresh-token-child:${parent}`)
        .digest("base64url")
        .slice(0, TOKEN_CHARS),
    flowBinding: (flowId) =>
      createHmac("sha256", flowKey)
        .update(`flow-binding:${flowId}`)
        .digest("base64url")
        .slice(0, BINDING_CHARS),
  };
}
