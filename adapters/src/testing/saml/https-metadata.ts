import { generateKeyPairSync, webcrypto } from "node:crypto";
import { writeFileSync } from "node:fs";
import { createServer } from "node:https";
import type { AddressInfo } from "node:net";

/** An https server on 127.0.0.1 serving one document, and the certificate a client must trust for it. */
export interface HttpsDocumentServer {
  readonly url: string;
  /** How many times the document was fetched. */
  readonly fetched: () => number;
  close(): Promise<void>;
}

/** A self-signed certificate for IP 127.0.0.1 (a CA of itself, so that it can be trusted as a root). */
async function loopbackCertificate(): Promise<{ keyPem: string; certPem: string }> {
  await import("reflect-metadata");
  const x509 = await import("@peculiar/x509");
  const { privateKey } = generateKeyPairSync("rsa", { modulusLength: 2048, publicExponent: 65537 });
  const algorithm = { name: "RSASSA-PKCS1-v1_5", hash: "SHA-256" };
  const pkcs8 = privateKey.export({ format: "der", type: "pkcs8" });
  const jwk = privateKey.export({ format: "jwk" });
  const keys = {
    privateKey: await webcrypto.subtle.importKey("pkcs8", pkcs8, algorithm, true, ["sign"]),
    publicKey: await webcrypto.subtle.importKey("jwk", { kty: "RSA", n: jwk.n, e: jwk.e }, algorithm, true, [
      "verify",
    ]),
  };
  const cert = await x509.X509CertificateGenerator.createSelfSigned(
    {
      serialNumber: "01",
      name: "CN=127.0.0.1",
      notBefore: new Date(Date.now() - 60_000),
      notAfter: new Date(Date.now() + 24 * 3600_000),
      signingAlgorithm: algorithm,
      keys,
      extensions: [
        new x509.BasicConstraintsExtension(true, undefined, true),
        new x509.KeyUsagesExtension(
          x509.KeyUsageFlags.digitalSignature |
            x509.KeyUsageFlags.keyCertSign |
            x509.KeyUsageFlags.keyEncipherment,
          true,
        ),
        new x509.SubjectAlternativeNameExtension([{ type: "ip", value: "127.0.0.1" }]),
      ],
    },
    webcrypto as unknown as Parameters<typeof x509.X509CertificateGenerator.createSelfSigned>[1],
  );
  return {
    keyPem: privateKey.export({ format: "pem", type: "pkcs8" }).toString(),
    certPem: cert.toString("pem"),
  };
}

/**
 * Serves `document` (as `application/xml`) over https at `https://127.0.0.1:<port>/metadata`, and
 * writes its certificate to `caFile`, for a server process started with `NODE_EXTRA_CA_CERTS` set to it.
 */
export async function startHttpsDocumentServer(
  document: string,
  caFile: string,
): Promise<HttpsDocumentServer> {
  const { keyPem, certPem } = await loopbackCertificate();
  writeFileSync(caFile, certPem);
  let count = 0;
  const server = createServer({ key: keyPem, cert: certPem }, (req, res) => {
    if (req.url !== "/metadata") {
      res.writeHead(404).end();
      return;
    }
    count += 1;
    res.writeHead(200, { "content-type": "application/xml" }).end(document);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `https://127.0.0.1:${port}/metadata`,
    fetched: () => count,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
