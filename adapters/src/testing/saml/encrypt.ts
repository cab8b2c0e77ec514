import { createPublicKey } from "node:crypto";
import { createRequire } from "node:module";

const require = createRequire(import.meta.url);
const xmlenc = require("xml-encryption") as {
  encrypt(
    content: string,
    options: Record<string, unknown>,
    callback: (error: Error | null, result?: string) => void,
  ): void;
};

/**
 * Replaces the (signed) Assertion of a base64 Response by an EncryptedAssertion for the service
 * provider's certificate (base64 DER): AES-256-GCM content, RSA-OAEP key transport.
 */
export async function encryptAssertion(samlResponse: string, spCertificate: string): Promise<string> {
  const xml = Buffer.from(samlResponse, "base64").toString("utf8");
  const start = xml.indexOf("<saml:Assertion");
  const end = xml.indexOf("</saml:Assertion>") + "</saml:Assertion>".length;
  if (start < 0 || end < start) throw new Error("no assertion to encrypt");
  // The assertion standing alone needs the namespace its prefix was declared with on the Response.
  const assertion = xml
    .slice(start, end)
    .replace("<saml:Assertion", '<saml:Assertion xmlns:saml="urn:oasis:names:tc:SAML:2.0:assertion"');
  const pem = `-----BEGIN CERTIFICATE-----\n${spCertificate.match(/.{1,64}/g)?.join("\n")}\n-----END CERTIFICATE-----\n`;
  const encrypted = await new Promise<string>((resolve, reject) =>
    xmlenc.encrypt(
      assertion,
      {
        rsa_pub: createPublicKey(pem).export({ type: "spki", format: "pem" }),
        pem,
        encryptionAlgorithm: "http://www.w3.org/2009/xmlenc11#aes256-gcm",
        keyEncryptionAlgorithm: "http://www.w3.org/2001/04/xmlenc#rsa-oaep-mgf1p",
        warnInsecureAlgorithm: false,
      },
      (error, result) => (error || result === undefined ? reject(error) : resolve(result)),
    ),
  );
  const replaced = `${xml.slice(0, start)}<saml:EncryptedAssertion>${encrypted}</saml:EncryptedAssertion>${xml.slice(end)}`;
  return Buffer.from(replaced, "utf8").toString("base64");
}
