import { createVerify, generateKeyPairSync } from "node:crypto";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { inflateRawSync } from "node:zlib";
import { spKeyOf } from "../../saml/sp-key.js";
import { type IdpKey, type ResponseSpec, signedResponse } from "./saml-response.js";

/** An AuthnRequest the identity provider received (HTTP-Redirect binding), decoded. */
export interface ReceivedRequest {
  readonly id: string;
  readonly issuer: string;
  readonly acsUrl: string;
  readonly nameIdFormat: string | null;
  readonly relayState: string;
  /** Whether its `Signature` verifies with the service provider's certificate (when one was given). */
  readonly signatureValid: boolean | null;
}

/** The person the identity provider signs in, and how it answers. */
export type Answer = Omit<ResponseSpec, "issuer" | "audience" | "acsUrl" | "inResponseTo">;

export interface TestIdp {
  readonly entityId: string;
  readonly ssoUrl: string;
  readonly key: IdpKey;
  /** Its metadata, to register with the service provider. */
  readonly metadataXml: string;
  readonly requests: ReceivedRequest[];
  /** Who signs in at the next request, and how the response is made. */
  answer: Answer;
  /** The service provider's signing certificate (base64 DER), to check AuthnRequests with. */
  spCertificate: string | null;
  /** A Response (base64) for an IdP-initiated sign-in or anything else a test builds; signed with `signWith`. */
  response(spec: Partial<ResponseSpec>, signWith?: IdpKey): string;
  close(): Promise<void>;
}

/** A key and self-signed certificate for an identity provider. */
export async function newIdpKey(host = "idp.test"): Promise<IdpKey> {
  const { privateKey } = generateKeyPairSync("rsa", { modulusLength: 2048, publicExponent: 65537 });
  const made = await spKeyOf(privateKey, host);
  const lines = made.certificate.match(/.{1,64}/g) ?? [];
  return {
    privateKeyPem: made.privateKeyPem,
    certificate: made.certificate,
    certificatePem: `-----BEGIN CERTIFICATE-----\n${lines.join("\n")}\n-----END CERTIFICATE-----\n`,
  };
}

export function idpMetadataXml(entityId: string, ssoUrl: string, certificate: string): string {
  return `<?xml version="1.0"?>
<md:EntityDescriptor xmlns:md="urn:oasis:names:tc:SAML:2.0:metadata" entityID="${entityId}">
  <md:IDPSSODescriptor protocolSupportEnumeration="urn:oasis:names:tc:SAML:2.0:protocol">
    <md:KeyDescriptor use="signing"><ds:KeyInfo xmlns:ds="http://www.w3.org/2000/09/xmldsig#"><ds:X509Data><ds:X509Certificate>${certificate}</ds:X509Certificate></ds:X509Data></ds:KeyInfo></md:KeyDescriptor>
    <md:NameIDFormat>urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress</md:NameIDFormat>
    <md:SingleSignOnService Binding="urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect" Location="${ssoUrl}"/>
  </md:IDPSSODescriptor>
</md:EntityDescriptor>`;
}

const attribute = (xml: string, name: string) => new RegExp(`\\b${name}="([^"]*)"`).exec(xml)?.[1] ?? "";

/** Checks the query signature of the HTTP-Redirect binding over the parameters as they were sent. */
function redirectSignatureValid(rawQuery: string, certificate: string): boolean {
  const parts = new Map(rawQuery.split("&").map((p) => [p.split("=")[0] ?? "", p] as const));
  const signed = ["SAMLRequest", "RelayState", "SigAlg"].flatMap((k) => (parts.has(k) ? [parts.get(k)] : []));
  const signature = decodeURIComponent((parts.get("Signature") ?? "").slice("Signature=".length));
  const pem = `-----BEGIN CERTIFICATE-----\n${certificate}\n-----END CERTIFICATE-----\n`;
  return createVerify("RSA-SHA256").update(signed.join("&")).verify(pem, signature, "base64");
}

/**
 * A SAML identity provider on 127.0.0.1 for tests: `GET /sso` takes an AuthnRequest (HTTP-Redirect
 * binding), records it, and answers the page real providers answer, a form that posts the signed
 * Response and the RelayState to the request's ACS. Who signs in is `answer`.
 */
export async function startTestIdp(options: {
  readonly spEntityId: string;
  readonly entityId?: string;
  readonly key?: IdpKey;
}): Promise<TestIdp> {
  const key = options.key ?? (await newIdpKey());
  const requests: ReceivedRequest[] = [];
  let idp: TestIdp;
  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://127.0.0.1");
    const saml = url.searchParams.get("SAMLRequest");
    if (url.pathname !== "/sso" || saml === null) {
      res.writeHead(404).end();
      return;
    }
    const xml = inflateRawSync(Buffer.from(saml, "base64")).toString("utf8");
    const rawQuery = (req.url ?? "").split("?")[1] ?? "";
    const request: ReceivedRequest = {
      id: attribute(xml, "ID"),
      issuer: /<saml:Issuer[^>]*>([^<]*)</.exec(xml)?.[1] ?? "",
      acsUrl: attribute(xml, "AssertionConsumerServiceURL"),
      nameIdFormat: attribute(xml, "Format") || null,
      relayState: url.searchParams.get("RelayState") ?? "",
      signatureValid: idp.spCertificate === null ? null : redirectSignatureValid(rawQuery, idp.spCertificate),
    };
    requests.push(request);
    const response = idp.response({ inResponseTo: request.id, acsUrl: request.acsUrl });
    res
      .writeHead(200, { "content-type": "text/html" })
      .end(
        `<html><body onload="document.forms[0].submit()"><form method="post" action="${request.acsUrl}">` +
          `<input type="hidden" name="SAMLResponse" value="${response}"/>` +
          `<input type="hidden" name="RelayState" value="${request.relayState.replace(/"/g, "&quot;")}"/>` +
          "</form></body></html>",
      );
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as AddressInfo).port;
  const entityId = options.entityId ?? `http://127.0.0.1:${port}/metadata`;
  const ssoUrl = `http://127.0.0.1:${port}/sso`;
  idp = {
    entityId,
    ssoUrl,
    key,
    metadataXml: idpMetadataXml(entityId, ssoUrl, key.certificate),
    requests,
    answer: { nameId: "person@example.com" },
    spCertificate: null,
    response: (spec, signWith = key) =>
      signedResponse(
        {
          issuer: entityId,
          audience: options.spEntityId,
          acsUrl: spec.acsUrl ?? options.spEntityId.replace(/metadata$/, "acs"),
          ...idp.answer,
          ...spec,
        },
        signWith,
      ),
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
  return idp;
}

/** Reads the hidden fields of the identity provider's auto-posting form. */
export function postedForm(html: string): { action: string; fields: Record<string, string> } {
  const action = /<form[^>]*action="([^"]*)"/.exec(html)?.[1] ?? "";
  const fields: Record<string, string> = {};
  for (const m of html.matchAll(/<input type="hidden" name="([^"]*)" value="([^"]*)"\/>/g)) {
    if (m[1] !== undefined) fields[m[1]] = (m[2] ?? "").replace(/&quot;/g, '"');
  }
  return { action, fields };
}
