import { createPrivateKey, type KeyObject, webcrypto } from "node:crypto";

/** The service provider's RSA key, as PEM (PKCS#8), with its self-signed certificate. */
export interface SpKey {
  readonly privateKeyPem: string;
  /** The certificate as base64 DER (what metadata and `idpCert`-style options carry). */
  readonly certificate: string;
}

/** The least RSA modulus accepted: 2048 bits. */
const LEAST_BITS = 2048;

/**
 * Reads `SAML_PRIVATE_KEY`: standard base64 of a DER RSA private key, PKCS#1 (as the reference) or
 * PKCS#8, of at least 2048 bits with e = 65537. Throws a sentence naming what is wrong, never the key.
 */
export function readSpPrivateKey(base64: string): KeyObject {
  const der = Buffer.from(base64.replace(/\s+/g, ""), "base64");
  let key: KeyObject | null = null;
  for (const type of ["pkcs1", "pkcs8"] as const) {
    try {
      key = createPrivateKey({ key: der, format: "der", type });
      break;
    } catch {
      // try the other encoding
    }
  }
  if (key === null) throw new Error("not a base64 DER RSA private key (PKCS#1 or PKCS#8)");
  const details = key.asymmetricKeyDetails;
  if (key.asymmetricKeyType !== "rsa") throw new Error("not an RSA key");
  if ((details?.modulusLength ?? 0) < LEAST_BITS) throw new Error(`RSA key shorter than ${LEAST_BITS} bits`);
  if (details?.publicExponent !== 65537n) throw new Error("RSA public exponent is not 65537");
  return key;
}

/**
 * The key with its certificate: self-signed, from fixed fields only (serial 1, subject `SAML 2.0
 * Certificate for <host>`, valid from the epoch for 200 years) and signed with PKCS#1 v1.5, which is
 * deterministic — so the same key always gives the same certificate, and identity providers that
 * pinned it need no re-configuring after a restart, as in the reference.
 */
export async function spKeyOf(key: KeyObject, host: string): Promise<SpKey> {
  // Loaded on first use; the library's dependency injection needs the Reflect metadata polyfill first.
  await import("reflect-metadata");
  const x509 = await import("@peculiar/x509");
  const privateKeyPem = key.export({ format: "pem", type: "pkcs8" }).toString();
  const algorithm = { name: "RSASSA-PKCS1-v1_5", hash: "SHA-256" };
  const privateKey = await webcrypto.subtle.importKey(
    "pkcs8",
    key.export({ format: "der", type: "pkcs8" }),
    algorithm,
    true,
    ["sign"],
  );
  const jwk = key.export({ format: "jwk" });
  const publicKey = await webcrypto.subtle.importKey(
    "jwk",
    { kty: "RSA", n: jwk.n, e: jwk.e },
    algorithm,
    true,
    ["verify"],
  );
  const cert = await x509.X509CertificateGenerator.createSelfSigned(
    {
      // Serial 1: the library draws a random serial for 0, which would change the certificate.
      serialNumber: "01",
      name: `CN=SAML 2.0 Certificate for ${host.replace(/[,=+<>#;"\\]/g, "")}`,
      notBefore: new Date(0),
      notAfter: new Date(Date.UTC(2170, 0, 1)),
      signingAlgorithm: algorithm,
      keys: { privateKey, publicKey },
      extensions: [
        new x509.KeyUsagesExtension(
          x509.KeyUsageFlags.digitalSignature | x509.KeyUsageFlags.dataEncipherment,
          true,
        ),
        new x509.SubjectAlternativeNameExtension([{ type: "dns", value: `_samlsp.${host}` }]),
      ],
    },
    webcrypto as unknown as Parameters<typeof x509.X509CertificateGenerator.createSelfSigned>[1],
  );
  return { privateKeyPem, certificate: Buffer.from(cert.rawData).toString("base64") };
}
