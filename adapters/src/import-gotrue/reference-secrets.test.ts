import { createCipheriv, hkdfSync, randomBytes, randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { referenceKeysFrom, referenceSecretOpener } from "./reference-secrets.js";

const P = "GOTRUE_SECURITY_DB_ENCRYPTION_";
const key = () => randomBytes(32).toString("base64url");

/** The reference's crypto.NewEncryptedString, from its Go source. */
function encrypt(rowId: string, plaintext: string, keyId: string, keyText: string): string {
  const rowKey = Buffer.from(
    hkdfSync("sha256", Buffer.from(keyText, "base64url"), Buffer.alloc(0), rowId, 32),
  );
  const nonce = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", rowKey, nonce);
  const data = Buffer.concat([cipher.update(plaintext), cipher.final(), cipher.getAuthTag()]);
  return JSON.stringify({
    key_id: keyId,
    alg: "aes-gcm-hkdf",
    data: data.toString("base64"),
    nonce: nonce.toString("base64"),
  });
}

describe("the reference's encrypted secrets", () => {
  it("opens a value with its key id among the decryption keys, or with the encryption key", () => {
    const [k1, k2] = [key(), key()];
    const id = randomUUID();
    const open = referenceSecretOpener(
      referenceKeysFrom({
        [`${P}ENCRYPTION_KEY_ID`]: "new",
        [`${P}ENCRYPTION_KEY`]: k2,
        [`${P}DECRYPTION_KEYS`]: `old:${k1}`,
      }),
    );
    expect(open(id, encrypt(id, "JBSWY3DPEHPK3PXP", "old", k1))).toBe("JBSWY3DPEHPK3PXP");
    expect(open(id, encrypt(id, "KRSXG5CTMVRXEZLU", "new", k2))).toBe("KRSXG5CTMVRXEZLU");
  });

  it("passes a value the reference stored in clear (encryption off) through", () => {
    expect(referenceSecretOpener(referenceKeysFrom({}))(randomUUID(), "JBSWY3DPEHPK3PXP")).toBe(
      "JBSWY3DPEHPK3PXP",
    );
  });

  it("answers null for an unknown key, another row's value, or an altered one", () => {
    const k = key();
    const id = randomUUID();
    const open = referenceSecretOpener(referenceKeysFrom({ [`${P}DECRYPTION_KEYS`]: `k:${k}` }));
    expect(referenceSecretOpener(referenceKeysFrom({}))(id, encrypt(id, "S", "k", k))).toBeNull();
    expect(open(id, encrypt(id, "S", "other", key()))).toBeNull();
    expect(open(id, encrypt(randomUUID(), "S", "k", k))).toBeNull();
    const sealed = JSON.parse(encrypt(id, "SECRET", "k", k)) as { data: string };
    const data = Buffer.from(sealed.data, "base64");
    data[0] = (data[0] as number) ^ 1;
    expect(open(id, JSON.stringify({ ...sealed, data: data.toString("base64") }))).toBeNull();
  });

  it.each([
    [{ [`${P}ENCRYPTION_KEY_ID`]: "a" }, "go together"],
    [{ [`${P}ENCRYPTION_KEY_ID`]: "a", [`${P}ENCRYPTION_KEY`]: "short" }, "32 bytes"],
    [{ [`${P}DECRYPTION_KEYS`]: "nokey" }, "id:key pairs"],
    [{ [`${P}DECRYPTION_KEYS`]: `a:${key()},b:${"x".repeat(40)}` }, "32 bytes"],
  ])("refuses malformed key settings %j", (env, message) => {
    expect(() => referenceKeysFrom(env)).toThrow(message);
  });
});
