import { createHash, createHmac } from "node:crypto";

/**
 * The refresh token the reference hands out with its second token algorithm
 * (`SECURITY_REFRESH_TOKEN_ALGORITHM_VERSION=2`, internal/crypto/refresh_tokens.go): it stores no
 * token, only the session's HMAC key and the counter of the last token issued, and the token is
 * base64url(0 ‖ session id (16 bytes) ‖ uvarint(counter) ‖ first 16 bytes of HMAC-SHA256(key, all
 * before) ‖ first 4 bytes of SHA-256(all before)). Computing it again from the two gives the token
 * the client holds, whose hash authsvc can then store.
 */
export function referenceRefreshTokenV2(sessionId: string, counter: bigint, hmacKey: Buffer): string {
  const id = Buffer.from(sessionId.replace(/-/g, ""), "hex");
  if (id.length !== 16) throw new RangeError("session id is not a UUID");
  const head = Buffer.concat([Buffer.from([0]), id, uvarint(counter < 0n ? 0n : counter)]);
  const signature = createHmac("sha256", hmacKey).update(head).digest().subarray(0, 16);
  const signed = Buffer.concat([head, signature]);
  const checksum = createHash("sha256").update(signed).digest().subarray(0, 4);
  return Buffer.concat([signed, checksum]).toString("base64url");
}

/** Go's binary.AppendUvarint: 7 bits a byte, lowest first, the high bit set on all but the last. */
function uvarint(value: bigint): Buffer {
  const bytes: number[] = [];
  let rest = value;
  while (rest >= 0x80n) {
    bytes.push(Number(rest & 0x7fn) | 0x80);
    rest >>= 7n;
  }
  bytes.push(Number(rest));
  return Buffer.from(bytes);
}
