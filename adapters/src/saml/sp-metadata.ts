/** What the service provider's metadata document says. */
export interface SpMetadataInput {
  readonly entityId: string;
  readonly acsUrl: string;
  /** The current certificate, then the next one during a rotation (base64 DER). */
  readonly certificates: readonly string[];
  readonly allowEncryptedAssertions: boolean;
  /** `validUntil`, for a downloaded copy; none otherwise. */
  readonly validUntil: Date | null;
  /** `cacheDuration`, ISO 8601, during a rotation. */
  readonly cacheDuration: string | null;
}

const escaped = (text: string) =>
  text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");

const keyDescriptor = (use: string, certificate: string) =>
  `<md:KeyDescriptor use="${use}"><ds:KeyInfo xmlns:ds="http://www.w3.org/2000/09/xmldsig#"><ds:X509Data><ds:X509Certificate>${certificate}</ds:X509Certificate></ds:X509Data></ds:KeyInfo></md:KeyDescriptor>`;

/**
 * The service provider's metadata (`GET /sso/saml/metadata`), as the reference publishes it: its
 * signing keys (and encryption keys when encrypted assertions are allowed), the NameID formats
 * emailAddress and persistent, and the assertion consumer service for the HTTP-POST binding.
 */
export function spMetadataXml(input: SpMetadataInput): string {
  const keys = input.certificates.flatMap((cert) => [
    keyDescriptor("signing", cert),
    ...(input.allowEncryptedAssertions ? [keyDescriptor("encryption", cert)] : []),
  ]);
  const validUntil = input.validUntil ? ` validUntil="${input.validUntil.toISOString()}"` : "";
  const cache = input.cacheDuration ? ` cacheDuration="${input.cacheDuration}"` : "";
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<md:EntityDescriptor xmlns:md="urn:oasis:names:tc:SAML:2.0:metadata" entityID="${escaped(input.entityId)}"${validUntil}${cache}>`,
    '<md:SPSSODescriptor protocolSupportEnumeration="urn:oasis:names:tc:SAML:2.0:protocol" WantAssertionsSigned="true">',
    ...keys,
    "<md:NameIDFormat>urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress</md:NameIDFormat>",
    "<md:NameIDFormat>urn:oasis:names:tc:SAML:2.0:nameid-format:persistent</md:NameIDFormat>",
    `<md:AssertionConsumerService Binding="urn:oasis:names:tc:SAML:2.0:bindings:HTTP-POST" Location="${escaped(input.acsUrl)}" index="1"/>`,
    "</md:SPSSODescriptor>",
    "</md:EntityDescriptor>",
  ].join("\n");
}
