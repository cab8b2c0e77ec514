import type { AttributeMapping, SamlAssertion } from "./provider.js";

const SUBJECT_ID = "urn:oasis:names:tc:SAML:attribute:subject-id";
const EMAIL_FORMAT = "urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress";
const TRANSIENT_FORMAT = "urn:oasis:names:tc:SAML:2.0:nameid-format:transient";
/** Where an email is looked for when the mapping names none (the reference's list, in its order). */
const EMAIL_ATTRIBUTES = [
  "urn:oid:0.9.2342.19200300.100.1.3",
  "http://schemas.xmlsoap.org/ws/2005/05/identity/claims/emailaddress",
  "http://schemas.xmlsoap.org/claims/EmailAddress",
  "mail",
  "Mail",
  "email",
];
/** Claims that go to the top of the identity data; any other mapped claim goes to `custom_claims`. */
const KNOWN_CLAIMS = new Set([
  "email",
  "name",
  "given_name",
  "family_name",
  "middle_name",
  "nickname",
  "preferred_username",
  "profile",
  "picture",
  "website",
  "gender",
  "birthdate",
  "zoneinfo",
  "locale",
  "phone",
]);

/** The values of an attribute by Name or FriendlyName, compared without case. */
function valuesOf(assertion: SamlAssertion, name: string): readonly string[] {
  const wanted = name.toLowerCase();
  for (const [key, values] of Object.entries(assertion.attributes)) {
    if (key.toLowerCase() === wanted && values.some((v) => v !== "")) return values.filter((v) => v !== "");
  }
  return [];
}

/**
 * Who the assertion is about: the `subject-id` attribute, else the NameID (an email NameID lower-cased
 * and trimmed). A transient NameID names nobody twice, so it cannot open an account: null.
 */
export function userIdOf(assertion: SamlAssertion): string | null {
  const subject = valuesOf(assertion, SUBJECT_ID)[0];
  if (subject !== undefined) return subject;
  const { nameId, nameIdFormat } = assertion;
  if (nameId === null || nameId.trim() === "" || nameIdFormat === TRANSIENT_FORMAT) return null;
  return nameIdFormat === EMAIL_FORMAT ? nameId.trim().toLowerCase() : nameId;
}

/** The claims `mapping` reads from the assertion: a rule's first named attribute with a value, else its default. */
export function mappedClaims(assertion: SamlAssertion, mapping: AttributeMapping): Record<string, unknown> {
  const claims: Record<string, unknown> = {};
  for (const [claim, rule] of Object.entries(mapping.keys ?? {})) {
    const names = [...(rule.name ? [rule.name] : []), ...(rule.names ?? [])];
    let value: unknown;
    for (const name of names) {
      const values = valuesOf(assertion, name);
      if (values.length > 0) {
        value = rule.array ? [...values] : values[0];
        break;
      }
    }
    if (value === undefined && rule.default !== undefined) value = rule.default;
    if (value !== undefined) claims[claim] = value;
  }
  return claims;
}

/** The person's email: the mapped `email`, else a well-known email attribute, else an email NameID. */
export function emailOf(assertion: SamlAssertion, claims: Record<string, unknown>): string | null {
  const mapped = claims.email;
  const first = Array.isArray(mapped) ? mapped[0] : mapped;
  if (typeof first === "string" && first.trim() !== "") return first.trim().toLowerCase();
  for (const name of EMAIL_ATTRIBUTES) {
    const value = valuesOf(assertion, name)[0];
    if (value !== undefined && value.trim() !== "") return value.trim().toLowerCase();
  }
  if (assertion.nameIdFormat === EMAIL_FORMAT && assertion.nameId)
    return assertion.nameId.trim().toLowerCase();
  return null;
}

/** The identity data of the person: known claims at the top, the others under `custom_claims`. */
export function identityDataOf(
  claims: Record<string, unknown>,
  fields: { readonly sub: string; readonly iss: string; readonly email: string },
): Record<string, unknown> {
  const data: Record<string, unknown> = {};
  const custom: Record<string, unknown> = {};
  for (const [claim, value] of Object.entries(claims)) {
    if (KNOWN_CLAIMS.has(claim)) data[claim] = value;
    else custom[claim] = value;
  }
  return {
    ...data,
    ...(Object.keys(custom).length > 0 ? { custom_claims: custom } : {}),
    sub: fields.sub,
    iss: fields.iss,
    email: fields.email,
    email_verified: true,
  };
}
