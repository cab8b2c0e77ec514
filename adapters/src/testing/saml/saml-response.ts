import { randomBytes } from "node:crypto";
import { signElement } from "./signing.js";

/** What the test identity provider asserts, and how; every field has a default that passes. */
export interface ResponseSpec {
  readonly issuer: string;
  readonly audience: string;
  readonly acsUrl: string;
  readonly nameId: string;
  readonly nameIdFormat?: string;
  readonly inResponseTo?: string | undefined;
  readonly attributes?: Readonly<Record<string, readonly string[]>>;
  /** When the assertion was issued; now by default. */
  readonly issuedAt?: Date;
  /** How long from `issuedAt` it stays valid (5 minutes by default). */
  readonly validForMs?: number;
  /** Destination and Recipient, when other than the ACS. */
  readonly destination?: string;
  readonly recipient?: string;
  /** Which elements are signed: the Assertion (default), the Response, both, or none. */
  readonly sign?: "assertion" | "response" | "both" | "none";
  /** The assertion's ID; random by default. */
  readonly assertionId?: string;
  /** The AuthnStatement's `SessionNotOnOrAfter`: when the IdP wants the session to end; none by default. */
  readonly sessionNotOnOrAfter?: Date;
}

/** A key with its certificate, PEM. */
export interface IdpKey {
  readonly privateKeyPem: string;
  readonly certificatePem: string;
  /** The certificate as base64 DER, as metadata carries it. */
  readonly certificate: string;
}

const escaped = (text: string) =>
  text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");
const newId = () => `_${randomBytes(16).toString("hex")}`;

/** A SAML 2.0 Response (unsigned XML) as `spec` describes it. */
export function responseXml(spec: ResponseSpec): string {
  const issued = spec.issuedAt ?? new Date();
  const until = new Date(issued.getTime() + (spec.validForMs ?? 5 * 60 * 1000));
  const inResponseTo = spec.inResponseTo ? ` InResponseTo="${escaped(spec.inResponseTo)}"` : "";
  const sessionEnd = spec.sessionNotOnOrAfter
    ? ` SessionNotOnOrAfter="${spec.sessionNotOnOrAfter.toISOString()}"`
    : "";
  const attributes = Object.entries(spec.attributes ?? {})
    .map(
      ([name, values]) =>
        `<saml:Attribute Name="${escaped(name)}">${values
          .map((v) => `<saml:AttributeValue>${escaped(v)}</saml:AttributeValue>`)
          .join("")}</saml:Attribute>`,
    )
    .join("");
  const format = spec.nameIdFormat ?? "urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress";
  return [
    `<samlp:Response xmlns:samlp="urn:oasis:names:tc:SAML:2.0:protocol" xmlns:saml="urn:oasis:names:tc:SAML:2.0:assertion"`,
    ` ID="${newId()}" Version="2.0" IssueInstant="${issued.toISOString()}"`,
    ` Destination="${escaped(spec.destination ?? spec.acsUrl)}"${inResponseTo}>`,
    `<saml:Issuer>${escaped(spec.issuer)}</saml:Issuer>`,
    `<samlp:Status><samlp:StatusCode Value="urn:oasis:names:tc:SAML:2.0:status:Success"/></samlp:Status>`,
    `<saml:Assertion ID="${escaped(spec.assertionId ?? newId())}" Version="2.0" IssueInstant="${issued.toISOString()}">`,
    `<saml:Issuer>${escaped(spec.issuer)}</saml:Issuer>`,
    `<saml:Subject><saml:NameID Format="${escaped(format)}">${escaped(spec.nameId)}</saml:NameID>`,
    `<saml:SubjectConfirmation Method="urn:oasis:names:tc:SAML:2.0:cm:bearer">`,
    `<saml:SubjectConfirmationData NotOnOrAfter="${until.toISOString()}" Recipient="${escaped(spec.recipient ?? spec.acsUrl)}"${inResponseTo}/>`,
    `</saml:SubjectConfirmation></saml:Subject>`,
    `<saml:Conditions NotBefore="${issued.toISOString()}" NotOnOrAfter="${until.toISOString()}">`,
    `<saml:AudienceRestriction><saml:Audience>${escaped(spec.audience)}</saml:Audience></saml:AudienceRestriction>`,
    `</saml:Conditions>`,
    `<saml:AuthnStatement AuthnInstant="${issued.toISOString()}" SessionIndex="${newId()}"${sessionEnd}>`,
    `<saml:AuthnContext><saml:AuthnContextClassRef>urn:oasis:names:tc:SAML:2.0:ac:classes:Password</saml:AuthnContextClassRef></saml:AuthnContext>`,
    `</saml:AuthnStatement>`,
    attributes ? `<saml:AttributeStatement>${attributes}</saml:AttributeStatement>` : "",
    `</saml:Assertion></samlp:Response>`,
  ].join("");
}

/** The Response, signed as `spec.sign` says with `key`, base64 as the HTTP-POST binding carries it. */
export function signedResponse(spec: ResponseSpec, key: IdpKey): string {
  let xml = responseXml(spec);
  const sign = spec.sign ?? "assertion";
  if (sign === "assertion" || sign === "both") xml = signElement(xml, "Assertion", key);
  if (sign === "response" || sign === "both") xml = signElement(xml, "Response", key);
  return Buffer.from(xml, "utf8").toString("base64");
}
