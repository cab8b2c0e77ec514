import { describe, expect, it } from "vitest";
import { customPerson } from "./custom-claims.js";

const raw = {
  sub: "u-1",
  email: "ann@example.com",
  email_verified: true,
  name: "Ann",
  preferred_username: "ann",
  groups: ["admins"],
  alt_mail: "other@example.com",
};

describe("customPerson", () => {
  it("keeps the standard claims, copies allow-listed raw claims, applies the mapping", () => {
    const person = customPerson(raw, {
      customClaimsAllowlist: ["groups", "missing"],
      attributeMapping: { nickname: "preferred_username", plan: { tier: 2 }, role: "name", alias: "groups" },
    });
    expect(person.subject).toBe("u-1");
    expect(person.emails).toEqual([{ email: "ann@example.com", verified: true, primary: true }]);
    expect(person.identityData).toMatchObject({
      sub: "u-1",
      name: "Ann",
      full_name: "Ann",
      nickname: "ann",
      plan: { tier: 2 },
      custom_claims: { groups: ["admins"] },
      email_verified: true,
    });
    // A protected target is never written, and only standard claims can be sourced.
    expect(person.identityData).not.toHaveProperty("role");
    expect(person.identityData).not.toHaveProperty("alias");
  });

  it("an address moved into email by a mapping is not the provider's verified one", () => {
    const person = customPerson(raw, {
      customClaimsAllowlist: [],
      attributeMapping: { email: "preferred_username" },
    });
    expect(person.emails).toEqual([{ email: "ann", verified: false, primary: true }]);
  });

  it("refuses an answer without a subject, and reads an unverified address as unverified", () => {
    expect(() =>
      customPerson({ email: "x@example.com" }, { customClaimsAllowlist: [], attributeMapping: {} }),
    ).toThrow(/no subject/);
    const unverified = customPerson(
      { sub: "u-2", email: "x@example.com", email_verified: "true" },
      { customClaimsAllowlist: [], attributeMapping: {} },
    );
    expect(unverified.emails).toEqual([{ email: "x@example.com", verified: false, primary: true }]);
  });
});
