import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from "node:crypto";
import type { SecretBox } from "@authsvc/core/mfa";

/** A 256-bit key, named: the id goes with every value it seals, so that keys can rotate. */
export interface EncryptionKey {
  readonly id: string;
  /** 32 bytes. */
  readonly key: Buffer;
}

const ALGORITHM = "aes-gcm-hkdf";

/**
 * AES-256-GCM in the reference's format (`crypto.EncryptedString` of GoTrue): the stored value is
 * JSON `{"key_id","alg":"aes-gcm-hkdf","data","nonce"}` (data and nonce in standard base64, the GCM
 * tag at the end of data), and each value's key is HKDF-SHA256(key, no salt, info = the row's id),
 * so a value only opens on its own row and a database copied from GoTrue with the same keys reads
 * here. Seals with `current`; opens with any key of `keys` by id (old keys stay for rotation).
 */
export function aesGcmSecretBox(current: EncryptionKey, keys: readonly EncryptionKey[] = []): SecretBox {
  const byId = new Map([...keys, current].map((k) => [k.id, k.key]));
  const rowKey = (key: Buffer, rowId: string) =>
    Buffer.from(hkdfSync("sha256", key, Buffer.alloc(0), rowId, 32));
  return {
    seal(rowId, plaintext) {
      const nonce = randomBytes(12);
      const cipher = createCipheriv("aes-256-gcm", rowKey(current.key, rowId), nonce);
      const data = Buffer.concat([cipher.update(plaintext, "utf8"), cipher.final(), cipher.getAuthTag()]);
      return JSON.stringify({
        key_id: current.id,
        alg: ALGORITHM,
        data: data.toString("base64"),
        nonce: nonce.toString("base64"),
      });
    },
    isCurrent: (sealed) => parse(sealed)?.keyId === current.id,
    open(rowId, sealed) {
      const parsed = parse(sealed);
      if (parsed === null) return null;
      const key = byId.get(parsed.keyId);
      if (key === undefined) return null;
      try {
        const decipher = createDecipheriv("aes-256-gcm", rowKey(key, rowId), parsed.nonce);
        decipher.setAuthTag(parsed.data.subarray(parsed.data.length - 16));
        const body = parsed.data.subarray(0, parsed.data.length - 16);
        return Buffer.concat([decipher.update(body), decipher.final()]).toString("utf8");
      } catch {
        return null; // tampered, or sealed for another row
      }
    },
  };
}

function parse(sealed: string): { keyId: string; data: Buffer; nonce: Buffer } | null {
  if (!sealed.startsWith("{")) return null;
  try {
    const value = JSON.parse(sealed) as Record<string, unknown>;
    const { key_id: keyId, alg, data, nonce } = value;
    if (
      typeof keyId !== "string" ||
      alg !== ALGORITHM ||
      typeof data !== "string" ||
      typeof nonce !== "string"
    ) {
      return null;
    }
    const bytes = Buffer.from(data, "base64");
    const iv = Buffer.from(nonce, "base64");
    return iv.length === 12 && bytes.length > 16 ? { keyId, data: bytes, nonce: iv } : null;
  } catch {
    return null;
  }
}

/**
 * The key used when none is configured: derived from the JWT secret with HKDF (its own `info`, so it
 * is not the signing key), under the id `jwt_secret`. Secrets are still encrypted at rest, and a
 * database dump alone does not reveal them; but changing `JWT_SECRET` without configuring a key
 * makes the enrolled TOTP factors unusable (documented in docs/mfa.md).
 */
export function keyDerivedFromJwtSecret(jwtSecret: string): EncryptionKey {
  const key = Buffer.from(
    hkdfSync("sha256", jwtSecret, Buffer.alloc(0), "authsvc mfa secret encryption", 32),
  );
  return { id: "jwt_secret", key };
}
