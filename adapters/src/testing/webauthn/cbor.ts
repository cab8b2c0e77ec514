/**
 * The CBOR (RFC 8949) a WebAuthn authenticator writes: unsigned and negative integers, byte and text
 * strings, arrays and maps (keys in the order given). Enough to encode attestation objects and COSE
 * keys in tests; not a general encoder.
 */
export type CborValue = number | string | Uint8Array | readonly CborValue[] | CborMap;
export type CborMap = ReadonlyMap<number | string, CborValue>;

function head(major: number, length: number): Buffer {
  if (length < 24) return Buffer.from([(major << 5) | length]);
  if (length < 0x100) return Buffer.from([(major << 5) | 24, length]);
  if (length < 0x10000) {
    const out = Buffer.alloc(3);
    out[0] = (major << 5) | 25;
    out.writeUInt16BE(length, 1);
    return out;
  }
  const out = Buffer.alloc(5);
  out[0] = (major << 5) | 26;
  out.writeUInt32BE(length, 1);
  return out;
}

export function cbor(value: CborValue): Buffer {
  if (typeof value === "number") return value >= 0 ? head(0, value) : head(1, -1 - value);
  if (typeof value === "string") {
    const text = Buffer.from(value, "utf8");
    return Buffer.concat([head(3, text.length), text]);
  }
  if (value instanceof Uint8Array) return Buffer.concat([head(2, value.length), Buffer.from(value)]);
  if (value instanceof Map) {
    const parts = [head(5, value.size)];
    for (const [k, v] of value) parts.push(cbor(k), cbor(v));
    return Buffer.concat(parts);
  }
  const list = value as readonly CborValue[];
  return Buffer.concat([head(4, list.length), ...list.map(cbor)]);
}
