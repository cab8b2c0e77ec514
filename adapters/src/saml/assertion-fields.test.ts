import { describe, expect, it } from "vitest";
import { assertionFields } from "./assertion-fields.js";

const ACS = "https://auth.example.com/sso/saml/acs";
const IDP = "https://idp.example.com/metadata";
const RESPONSE = `<samlp:Response xmlns:samlp="urn:oasis:names:tc:SAML:2.0:protocol" Destination="${ACS}"/>`;

/** A verified assertion's XML whose AuthnStatements carry these `SessionNotOnOrAfter` values. */
const assertion = (...sessionEnds: (string | null)[]) =>
  [
    `<saml:Assertion xmlns:saml="urn:oasis:names:tc:SAML:2.0:assertion" ID="_a1">`,
    `<saml:Issuer>${IDP}</saml:Issuer>`,
    `<saml:Subject><saml:NameID>ada@example.com</saml:NameID><saml:SubjectConfirmation>`,
    `<saml:SubjectConfirmationData Recipient="${ACS}" NotOnOrAfter="2030-01-01T00:05:00Z"/>`,
    `</saml:SubjectConfirmation></saml:Subject>`,
    ...sessionEnds.map(
      (end) =>
        `<saml:AuthnStatement AuthnInstant="2030-01-01T00:00:00Z"${end === null ? "" : ` SessionNotOnOrAfter="${end}"`}/>`,
    ),
    `</saml:Assertion>`,
  ].join("");

const read = (xml: string) => assertionFields(xml, RESPONSE, { acsUrl: ACS, entityId: IDP });

describe("the session end an assertion asks for", () => {
  it("is the first AuthnStatement's SessionNotOnOrAfter, none without one", () => {
    const both = read(assertion(null, "2030-01-01T08:00:00.5Z", "2030-01-01T01:00:00Z"));
    expect(both.ok && both.value.sessionNotOnOrAfter?.toISOString()).toBe("2030-01-01T08:00:00.500Z");
    const none = read(assertion(null));
    expect(none.ok && none.value.sessionNotOnOrAfter).toBeNull();
  });

  it("reads a time without a zone as UTC, with up to nanoseconds, and one with an offset", () => {
    const bare = read(assertion("2030-01-01T08:00:00.123456789"));
    expect(bare.ok && bare.value.sessionNotOnOrAfter?.toISOString()).toBe("2030-01-01T08:00:00.123Z");
    const offset = read(assertion("2030-01-01T08:00:00+02:00"));
    expect(offset.ok && offset.value.sessionNotOnOrAfter?.toISOString()).toBe("2030-01-01T06:00:00.000Z");
  });

  it("refuses an assertion whose SessionNotOnOrAfter cannot be read, rather than start an endless session", () => {
    for (const bad of ["tomorrow", "2030-13-01T00:00:00Z", "2030-01-01T08:00:00+2", "2030", ""]) {
      const result = read(assertion(bad === "" ? "  " : bad));
      expect(result, bad).toEqual({ ok: false, error: "SessionNotOnOrAfter is not a date and time" });
    }
  });
});

describe("text Postgres cannot store", () => {
  const withSubject = (nameId: string, attributes = "") =>
    [
      `<saml:Assertion xmlns:saml="urn:oasis:names:tc:SAML:2.0:assertion" ID="_a1">`,
      `<saml:Issuer>${IDP}</saml:Issuer>`,
      `<saml:Subject><saml:NameID>${nameId}</saml:NameID><saml:SubjectConfirmation>`,
      `<saml:SubjectConfirmationData Recipient="${ACS}" NotOnOrAfter="2030-01-01T00:05:00Z"/>`,
      `</saml:SubjectConfirmation></saml:Subject>`,
      `<saml:AttributeStatement>${attributes}</saml:AttributeStatement>`,
      `</saml:Assertion>`,
    ].join("");
  const attribute = (name: string, ...values: string[]) =>
    `<saml:Attribute Name="${name}">${values.map((v) => `<saml:AttributeValue>${v}</saml:AttributeValue>`).join("")}</saml:Attribute>`;

  it("refuses a NameID or a subject-id holding NUL: they name the person", () => {
    expect(read(withSubject("ada\u0000@example.com"))).toEqual({
      ok: false,
      error: "NameID holds text that cannot be stored",
    });
    const subject = attribute("urn:oasis:names:tc:SAML:attribute:subject-id", "ada\u0000");
    expect(read(withSubject("ada@example.com", subject))).toEqual({
      ok: false,
      error: "subject-id holds text that cannot be stored",
    });
  });

  it("leaves other attribute values holding NUL unread", () => {
    const result = read(
      withSubject("ada@example.com", attribute("email", "a\u0000@example.com", "ada@example.com")),
    );
    expect(result.ok && result.value.attributes).toEqual({ email: ["ada@example.com"] });
  });
});
