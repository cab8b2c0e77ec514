import type { SecretTokens } from "../kernel/index.js";

const BASE64URL = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

/** base64url (no padding) of the bytes a hex string spells; anything not hex is returned unchanged. */
export function hexToBase64Url(hex: string): string {
  if (!/^(?:[0-9a-f]{2})*$/i.test(hex)) return hex;
  const bytes = hex.match(/../g)?.map((pair) => Number.parseInt(pair, 16)) ?? [];
  let out = "";
  for (let i = 0; i < bytes.length; i += 3) {
    const [a = 0, b = 0, c = 0] = bytes.slice(i, i + 3);
    const n = (a << 16) | (b << 8) | c;
    const chars = Math.min(4, Math.ceil(((bytes.length - i) * 8) / 6));
    for (let j = 0; j < chars; j++) out += BASE64URL[(n >> (18 - 6 * j)) & 63];
  }
  return out;
}

/**
 * The reference's obfuscation of a soft-deleted user's values: base64url(SHA-256(id + value)), one-way
 * and distinct per user, so the address is free for a new account and the row names no one. Phones are
 * cut to 15 characters, as the reference does (its column was once varchar(15)).
 */
export function obfuscator(tokens: Pick<SecretTokens, "hash">, userId: string) {
  const value = (text: string) => hexToBase64Url(tokens.hash(`${userId}${text}`));
  return {
    email: (email: string | null) => value(email ?? ""),
    phone: (phone: string | null) => value(phone ?? "").slice(0, 15),
    /** An identity's `provider_id`, from `provider:provider_id`. */
    providerId: (provider: string, providerId: string) => value(`${provider}:${providerId}`),
  };
}
