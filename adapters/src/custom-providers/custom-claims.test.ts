import { PROTECTED_MAPPING_TARGETS } from "@authsvc/core/custom-providers";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { ProviderCallError } from "../external/provider-call.js";
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

describe("customPerson with hostile claims and mappings", () => {
  const key = fc.oneof(
    fc.constantFrom("email", "email_verified", "name", "picture", "__proto__"),
    fc.string(),
  );
  // Mostly with a usable subject, so that most runs get past the refusal of an answer without one.
  const claims = fc
    .tuple(
      fc.dictionary(key, fc.jsonValue(), { maxKeys: 12 }),
      fc.option(fc.string({ minLength: 1 }), { freq: 5 }),
    )
    .map(([raw, sub]) => (sub === null ? raw : { ...raw, sub }));
  const mapping = fc.dictionary(
    fc.oneof(
      fc.constantFrom(...PROTECTED_MAPPING_TARGETS, "email", "custom_claims", "nickname"),
      fc.string(),
    ),
    fc.oneof(fc.constantFrom("sub", "email", "name", "groups", "toString", "__proto__"), fc.jsonValue()),
    { maxKeys: 6 },
  );
  const allowlist = fc.array(fc.oneof(fc.constantFrom("toString", "__proto__", "name"), fc.string()), {
    maxLength: 4,
  });
  const SYSTEM_SET = ["sub", "provider_id", "email_verified", "phone_verified"];

  it("never takes a mapping target named __proto__ for the identity data's prototype", () => {
    const person = customPerson(
      { sub: "s" },
      { attributeMapping: JSON.parse('{"__proto__": []}'), customClaimsAllowlist: [] },
    );
    expect(Object.getPrototypeOf(person.identityData)).toBe(Object.prototype);
  });

  it("either refuses the answer or keeps its promises: the provider's sub, addresses verified only as the provider verified them, no protected field", () => {
    let people = 0;
    fc.assert(
      fc.property(claims, mapping, allowlist, (raw, attributeMapping, allowlist) => {
        let person: ReturnType<typeof customPerson>;
        try {
          person = customPerson(raw, { attributeMapping, customClaimsAllowlist: allowlist });
        } catch (error) {
          expect(error).toBeInstanceOf(ProviderCallError);
          return;
        }
        people++;
        expect(person.subject).toBe(raw.sub);
        const data = person.identityData as Record<string, unknown>;
        expect([data.sub, data.provider_id]).toEqual([raw.sub, raw.sub]);
        expect(data.email_verified).toBe(person.emails[0]?.verified ?? false);
        expect(data.phone_verified).toBe(false);
        for (const email of person.emails) {
          if (email.verified) expect(raw.email_verified === true && raw.email === email.email).toBe(true);
        }
        expect(Object.getPrototypeOf(data)).toBe(Object.prototype);
        for (const value of Object.values(data)) expect(typeof value).not.toBe("function");
        for (const target of PROTECTED_MAPPING_TARGETS.filter((t) => !SYSTEM_SET.includes(t))) {
          expect(Object.hasOwn(data, target), target).toBe(false);
        }
      }),
      { numRuns: 500 },
    );
    expect(people).toBeGreaterThan(300);
  });
});
