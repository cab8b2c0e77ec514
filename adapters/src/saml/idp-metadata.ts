import type { Result } from "@authsvc/core/kernel";
import type { IdpMetadata } from "@authsvc/core/sso";
import { elements, parseXml, textOf } from "./xml-dom.js";

const REDIRECT_BINDING = "urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect";

/** An identity provider's metadata, with what the service provider needs to talk to it. */
export interface IdpDescription extends IdpMetadata {
  /** Its single sign-on service for the HTTP-Redirect binding. */
  readonly ssoUrl: string;
  /** The certificates its signing keys come with (base64 DER), those marked for signing or unmarked. */
  readonly signingCerts: readonly string[];
}

/**
 * Reads identity-provider metadata: one EntityDescriptor with an EntityID and exactly one
 * IDPSSODescriptor, which offers the HTTP-Redirect binding and at least one signing certificate
 * (the reference accepts metadata without one, and every response from it is then refused).
 */
export function readIdpMetadata(xml: string): Result<IdpDescription, string> {
  const fail = (reason: string): Result<IdpDescription, string> => ({ ok: false, error: reason });
  const doc = parseXml(xml);
  if (doc === null) return fail("SAML Metadata is not valid XML");
  const root = doc.documentElement;
  if (root === null || root.localName !== "EntityDescriptor")
    return fail("SAML Metadata is not an EntityDescriptor");
  const entityId = root.getAttribute("entityID") ?? "";
  if (entityId.trim() === "") return fail("SAML Metadata does not contain an EntityID");
  const descriptors = elements(doc, "/*/*[local-name()='IDPSSODescriptor']");
  if (descriptors.length === 0) return fail("SAML Metadata does not contain any IDPSSODescriptor");
  if (descriptors.length > 1) return fail("SAML Metadata contains multiple IDPSSODescriptors");
  const idp = descriptors[0];
  if (idp === undefined) return fail("SAML Metadata does not contain any IDPSSODescriptor");
  const sso = elements(idp, "./*[local-name()='SingleSignOnService']").find(
    (e) => e.getAttribute("Binding") === REDIRECT_BINDING,
  );
  const ssoUrl = sso?.getAttribute("Location") ?? "";
  if (!/^https?:\/\//i.test(ssoUrl)) {
    return fail("SAML Metadata has no SingleSignOnService for the HTTP-Redirect binding");
  }
  const signingCerts = elements(idp, "./*[local-name()='KeyDescriptor']")
    .filter((k) => (k.getAttribute("use") ?? "signing") === "signing")
    .flatMap((k) =>
      elements(k, ".//*[local-name()='X509Certificate']").map((c) => textOf(c).replace(/\s+/g, "")),
    )
    .filter((c) => c !== "");
  if (signingCerts.length === 0) return fail("SAML Metadata has no signing certificate");
  const until = root.getAttribute("validUntil");
  const validUntil = until ? new Date(until) : null;
  return {
    ok: true,
    value: {
      entityId,
      ssoUrl,
      signingCerts,
      validUntil: validUntil !== null && !Number.isNaN(validUntil.getTime()) ? validUntil : null,
    },
  };
}
