import { createHash, createHmac, randomBytes, randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { referenceRefreshTokenV2 } from "./refresh-token-v2.js";

/** The reference's `crypto.ParseRefreshToken` and `CheckSignature`, step by step, as its Go source reads a token. */
function parse(token: string, key: Buffer) {
  const bytes = Buffer.from(token, "base64url");
  expect(bytes.toString("base64url")).toBe(token); // unpadded base64url
  expect(bytes[0]).toBe(0); // version
  const body = bytes.subarray(0, bytes.length - 4);
  expect(bytes.subarray(bytes.length - 4)).toEqual(createHash("sha256").update(body).digest().subarray(0, 4));
  const sessionId = bytes.subarray(1, 17).toString("hex");
  let counter = 0n;
  let shift = 0n;
  let at = 17;
  for (;;) {
    const byte = bytes[at++] as number;
    counter |= BigInt(byte & 0x7f) << shift;
    shift += 7n;
    if (byte < 0x80) break;
  }
  const signature = bytes.subarray(at, bytes.length - 4);
  expect(signature.length).toBe(16);
  const expected = createHmac("sha256", key).update(bytes.subarray(0, at)).digest().subarray(0, 16);
  return { sessionId, counter, signed: signature.equals(expected) };
}

describe("the reference's second refresh token algorithm", () => {
  it.each([0n, 1n, 127n, 128n, 300n, 16_384n, 9_007_199_254_740_993n])(
    "encodes counter %s as the reference reads it",
    (counter) => {
      const key = randomBytes(32);
      const id = randomUUID();
      const parsed = parse(referenceRefreshTokenV2(id, counter, key), key);
      expect(parsed).toEqual({ sessionId: id.replaceAll("-", ""), counter, signed: true });
    },
  );

  it("signs with the session's key: another key does not verify it", () => {
    const id = randomUUID();
    expect(parse(referenceRefreshTokenV2(id, 5n, randomBytes(32)), randomBytes(32)).signed).toBe(false);
  });

  it("writes a negative counter as 0, as the reference's safeUint64", () => {
    const key = randomBytes(32);
    const id = randomUUID();
    expect(referenceRefreshTokenV2(id, -4n, key)).toBe(referenceRefreshTokenV2(id, 0n, key));
  });

  it("refuses a session id that is not a UUID", () => {
    expect(() => referenceRefreshTokenV2("not-a-uuid", 1n, randomBytes(32))).toThrow(RangeError);
  });
});
