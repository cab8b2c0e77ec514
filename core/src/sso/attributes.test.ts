import { describe, expect, it } from "vitest";
import { emailOf, identityDataOf, mappedClaims, userIdOf } from "./attributes.js";
import type { SamlAssertion } from "./provider.js";

const EMAIL = "urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress";
const assertion = (fields: Partial<SamlAssertion>): SamlAssertion => ({
  id: "a",
  notOnOrAfter: null,
  sessionNotOnOrAfter: null,
  nameId: null,
  nameIdFormat: null,
  attributes: {},
  ...fields,
});

describe("the assertion's person", () => {
  it("is named by subject-id, else the NameID (an email one lower-cased), never a transient one", () => {
    const subject = { "urn:oasis:names:tc:SAML:attribute:subject-id": ["s-1"] };
    expect(userIdOf(assertion({ attributes: subject, nameId: "x" }))).toBe("s-1");
    expect(userIdOf(assertion({ nameId: " Ada@Example.COM ", nameIdFormat: EMAIL }))).toBe("ada@example.com");
    const transient = "urn:oasis:names:tc:SAML:2.0:nameid-format:transient";
    expect(userIdOf(assertion({ nameId: "t", nameIdFormat: transient }))).toBeNull();
  });

  it("maps attributes by Name or FriendlyName without case: first value, all with array, else the default", () => {
    const a = assertion({ attributes: { DisplayName: ["Ada"], groups: ["a", "b"], empty: [""] } });
    const claims = mappedClaims(a, {
      keys: {
        name: { name: "displayname" },
        groups: { names: ["missing", "groups"], array: true },
        team: { name: "empty", default: "none" },
      },
    });
    expect(claims).toEqual({ name: "Ada", groups: ["a", "b"], team: "none" });
    expect(identityDataOf(claims, { sub: "s", iss: "i", email: "e@x" })).toEqual({
      name: "Ada",
      custom_claims: { groups: ["a", "b"], team: "none" },
      sub: "s",
      iss: "i",
      email: "e@x",
      email_verified: true,
    });
  });

  it("finds the email in the mapping, a well-known attribute, or an email NameID", () => {
    expect(emailOf(assertion({}), { email: ["A@X.example"] })).toBe("a@x.example");
    expect(emailOf(assertion({ attributes: { mail: ["m@x.example"] } }), {})).toBe("m@x.example");
    expect(emailOf(assertion({ nameId: "N@x.example", nameIdFormat: EMAIL }), {})).toBe("n@x.example");
    expect(emailOf(assertion({ nameId: "opaque" }), {})).toBeNull();
  });
});
