import { isStorableText, type Result } from "@authsvc/core/kernel";
import type { SamlAssertion } from "@authsvc/core/sso";
import { elements, parseXml, textOf } from "./xml-dom.js";

/** The attribute that names the person, when present (as core's `userIdOf` reads it). */
const SUBJECT_ID = "urn:oasis:names:tc:saml:attribute:subject-id";

/** Reads a base64 `SAMLResponse` as a document, or null when it is not a SAML Response. */
export function responseDocument(samlResponse: string) {
  if (!/^[A-Za-z0-9+/=\s]+$/.test(samlResponse)) return null;
  const doc = parseXml(Buffer.from(samlResponse, "base64").toString("utf8"));
  return doc?.documentElement?.localName === "Response" ? doc : null;
}

/** The `Issuer` of a base64 `SAMLResponse` (the Response's, else its Assertion's); null when none. */
export function issuerOfResponse(samlResponse: string): string | null {
  const doc = responseDocument(samlResponse);
  if (doc === null) return null;
  const issuer =
    elements(doc, "/*/*[local-name()='Issuer']")[0] ??
    elements(doc, "/*/*[local-name()='Assertion']/*[local-name()='Issuer']")[0];
  const text = textOf(issuer);
  return text === "" ? null : text;
}

/**
 * An xs:dateTime as SAML writes it (UTC: `Z` or no zone; an explicit offset is read too, being
 * unambiguous); null for anything else.
 */
function utcInstant(text: string): Date | null {
  const match = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d{1,9})?)(Z|[+-]\d{2}:\d{2})?$/.exec(text.trim());
  if (match === null) return null;
  const date = new Date(`${match[1]}${match[2] ?? "Z"}`);
  return Number.isNaN(date.getTime()) ? null : date;
}

/**
 * What the library left to check, read from the verified assertion (and the response): the response's
 * Destination (when present) and the confirmation's Recipient are this ACS, the Issuer is the
 * provider; then the assertion's ID, NameID, attributes (by Name and FriendlyName) and end of validity.
 */
export function assertionFields(
  assertionXml: string,
  responseXml: string,
  expect: { readonly acsUrl: string; readonly entityId: string },
): Result<SamlAssertion, string> {
  const fail = (reason: string): Result<SamlAssertion, string> => ({ ok: false, error: reason });
  const response = parseXml(responseXml);
  const destination = response?.documentElement?.getAttribute("Destination") ?? "";
  if (destination !== "" && destination !== expect.acsUrl)
    return fail("Destination is not this service provider's ACS");
  const doc = parseXml(assertionXml);
  const assertion = doc?.documentElement;
  if (doc === null || assertion == null) return fail("Assertion is not readable");
  if (textOf(elements(doc, "/*/*[local-name()='Issuer']")[0]) !== expect.entityId) {
    return fail("Assertion was not issued by this identity provider");
  }
  const confirmations = elements(
    doc,
    "/*/*[local-name()='Subject']/*[local-name()='SubjectConfirmation']/*[local-name()='SubjectConfirmationData']",
  );
  if (!confirmations.some((c) => c.getAttribute("Recipient") === expect.acsUrl)) {
    return fail("Recipient is not this service provider's ACS");
  }
  const nameId = elements(doc, "/*/*[local-name()='Subject']/*[local-name()='NameID']")[0];
  const nameIdText = nameId ? textOf(nameId) : null;
  const nameIdFormat = nameId?.getAttribute("Format") || null;
  // Postgres cannot store NUL (nor a lone surrogate): a value that names the person is refused, since
  // replacing characters could make it name someone else; other attribute values are left unread.
  if (!isStorableText(nameIdText ?? "") || !isStorableText(nameIdFormat ?? "")) {
    return fail("NameID holds text that cannot be stored");
  }
  const attributes: Record<string, string[]> = {};
  for (const attribute of elements(
    doc,
    "/*/*[local-name()='AttributeStatement']/*[local-name()='Attribute']",
  )) {
    const all = elements(attribute, "./*[local-name()='AttributeValue']").map((v) => textOf(v));
    const keys = [attribute.getAttribute("Name"), attribute.getAttribute("FriendlyName")];
    if (keys.some((k) => k?.toLowerCase() === SUBJECT_ID) && !all.every(isStorableText)) {
      return fail("subject-id holds text that cannot be stored");
    }
    const values = all.filter(isStorableText);
    for (const key of keys) {
      if (key && isStorableText(key)) attributes[key] = [...(attributes[key] ?? []), ...values];
    }
  }
  const ends = [...elements(doc, "/*/*[local-name()='Conditions']"), ...confirmations]
    .map((e) => e.getAttribute("NotOnOrAfter"))
    .filter((t): t is string => !!t)
    .map((t) => new Date(t))
    .filter((d) => !Number.isNaN(d.getTime()));
  const sessionEnds = elements(doc, "/*/*[local-name()='AuthnStatement']")
    .map((e) => e.getAttribute("SessionNotOnOrAfter"))
    .filter((t): t is string => !!t)
    .map(utcInstant);
  // An end the IdP asked for but that cannot be read must not become a session without an end.
  if (sessionEnds.some((d) => d === null)) return fail("SessionNotOnOrAfter is not a date and time");
  const id = assertion.getAttribute("ID") ?? "";
  if (id === "") return fail("Assertion has no ID");
  return {
    ok: true,
    value: {
      id,
      notOnOrAfter: ends.length > 0 ? new Date(Math.min(...ends.map((d) => d.getTime()))) : null,
      sessionNotOnOrAfter: sessionEnds[0] ?? null,
      nameId: nameIdText,
      nameIdFormat,
      attributes,
    },
  };
}
