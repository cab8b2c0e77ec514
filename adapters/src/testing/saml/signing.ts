import { createRequire } from "node:module";

/** xml-crypto's signer, typed here: its own types bring the browser's DOM globals into the type check. */
interface Signer {
  addReference(options: { xpath: string; digestAlgorithm: string; transforms: string[] }): void;
  computeSignature(xml: string, options: { location: { reference: string; action: "after" } }): void;
  getSignedXml(): string;
}
const require = createRequire(import.meta.url);
const { SignedXml } = require("xml-crypto") as {
  SignedXml: new (options: {
    privateKey: string;
    publicCert: string;
    signatureAlgorithm: string;
    canonicalizationAlgorithm: string;
  }) => Signer;
};

const EXC_C14N = "http://www.w3.org/2001/10/xml-exc-c14n#";

/**
 * Signs the element `element` (`Response` or `Assertion`, the first of its name) of `xml` with an
 * enveloped XML signature (RSA-SHA256, exclusive c14n) placed after its `Issuer`, as identity
 * providers do.
 */
export function signElement(
  xml: string,
  element: "Response" | "Assertion",
  key: { readonly privateKeyPem: string; readonly certificatePem: string },
): string {
  const signer = new SignedXml({
    privateKey: key.privateKeyPem,
    publicCert: key.certificatePem,
    signatureAlgorithm: "http://www.w3.org/2001/04/xmldsig-more#rsa-sha256",
    canonicalizationAlgorithm: EXC_C14N,
  });
  const path = element === "Response" ? "/*[local-name(.)='Response']" : "//*[local-name(.)='Assertion']";
  signer.addReference({
    xpath: path,
    digestAlgorithm: "http://www.w3.org/2001/04/xmlenc#sha256",
    transforms: ["http://www.w3.org/2000/09/xmldsig#enveloped-signature", EXC_C14N],
  });
  signer.computeSignature(xml, {
    location: { reference: `${path}/*[local-name(.)='Issuer']`, action: "after" },
  });
  return signer.getSignedXml();
}
