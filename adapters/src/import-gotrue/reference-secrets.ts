import { aesGcmSecretBox } from "../mfa/secret-box.js";

/** The reference's `GOTRUE_SECURITY_DB_ENCRYPTION_*` settings, as it reads them. */
export interface ReferenceKeys {
  /** `…_ENCRYPTION_KEY_ID` and `…_ENCRYPTION_KEY` (base64url, 32 bytes), when it encrypted. */
  readonly encryptionKey?: { readonly id: string; readonly key: string } | undefined;
  /** `…_DECRYPTION_KEYS`: `id:key,id:key`. */
  readonly decryptionKeys: Readonly<Record<string, string>>;
}

/** Reads the reference's key settings from its own variables; a malformed one is refused. */
export function referenceKeysFrom(env: Readonly<Record<string, string | undefined>>): ReferenceKeys {
  const prefix = "GOTRUE_SECURITY_DB_ENCRYPTION_";
  const id = env[`${prefix}ENCRYPTION_KEY_ID`]?.trim();
  const key = env[`${prefix}ENCRYPTION_KEY`]?.trim();
  const decryptionKeys: Record<string, string> = {};
  for (const pair of (env[`${prefix}DECRYPTION_KEYS`] ?? "").split(",")) {
    if (pair.trim() === "") continue;
    const colon = pair.indexOf(":");
    if (colon <= 0) throw new RangeError(`${prefix}DECRYPTION_KEYS: expected id:key pairs`);
    decryptionKeys[pair.slice(0, colon).trim()] = checkKey(
      `${prefix}DECRYPTION_KEYS`,
      pair.slice(colon + 1).trim(),
    );
  }
  if ((id === undefined || id === "") !== (key === undefined || key === "")) {
    throw new RangeError(`${prefix}ENCRYPTION_KEY_ID and ${prefix}ENCRYPTION_KEY go together`);
  }
  return id && key
    ? { encryptionKey: { id, key: checkKey(`${prefix}ENCRYPTION_KEY`, key) }, decryptionKeys }
    : { decryptionKeys };
}

function checkKey(name: string, key: string): string {
  if (!/^[A-Za-z0-9_-]{43}=?$/.test(key) || Buffer.from(key, "base64url").length !== 32) {
    throw new RangeError(`${name}: expected 32 bytes in base64url`);
  }
  return key;
}

/**
 * Opens a value as the reference stored it (crypto.ParseEncryptedString): JSON in its
 * `aes-gcm-hkdf` format is encrypted and opens with the key of its `key_id` for its row; anything
 * else was written in clear (encryption off) and is the value itself. null: encrypted with a key not
 * given, or altered.
 */
export function referenceSecretOpener(keys: ReferenceKeys): (rowId: string, stored: string) => string | null {
  const all = Object.entries(keys.decryptionKeys).map(([id, key]) => ({
    id,
    key: Buffer.from(key, "base64url"),
  }));
  if (keys.encryptionKey)
    all.push({ id: keys.encryptionKey.id, key: Buffer.from(keys.encryptionKey.key, "base64url") });
  const [first, ...rest] = all;
  const box = first ? aesGcmSecretBox(first, rest) : null;
  return (rowId, stored) => {
    if (!isEncrypted(stored)) return stored;
    return box ? box.open(rowId, stored) : null;
  };
}

function isEncrypted(stored: string): boolean {
  if (!stored.startsWith("{")) return false;
  try {
    const value = JSON.parse(stored) as Record<string, unknown>;
    return typeof value === "object" && value !== null && "key_id" in value && "data" in value;
  } catch {
    return false;
  }
}
