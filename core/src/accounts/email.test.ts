import { describe, expect, it } from "vitest";
import { normalizeEmail } from "./email.js";

const failure = (input: string) => {
  const result = normalizeEmail(input);
  if (result.ok) throw new Error(`expected ${JSON.stringify(input)} to be refused`);
  return { code: result.error.code, message: result.error.message };
};

describe("normalizeEmail", () => {
  it("trims and lowercases valid addresses", () => {
    expect(normalizeEmail("  Alice.Smith+tag@Example.COM ")).toEqual({
      ok: true,
      value: "alice.smith+tag@example.com",
    });
    expect(normalizeEmail("o'hara!#$%&*/=?^_`{|}~-@sub-1.example.co.uk")).toMatchObject({ ok: true });
  });

  it("accepts a dot-less domain, as GoTrue's checkmail does", () => {
    expect(normalizeEmail("root@localhost")).toEqual({ ok: true, value: "root@localhost" });
  });

  it("refuses malformed addresses with GoTrue's message", () => {
    const invalid = {
      code: "validation_failed",
      message: "Unable to validate email address: invalid format",
    };
    for (const input of [
      "a",
      "xx:;x@x.x",
      "@example.com",
      "a@",
      "a@@example.com",
      "a b@example.com",
      "a@-example.com",
      "a@example-.com",
      "a@example..com",
      "a@.example.com",
      "a@example.com.",
      "ü@example.com",
      "a@exämple.com",
      `a@${"x".repeat(64)}.com`,
    ]) {
      expect(failure(input)).toEqual(invalid);
    }
  });

  it("refuses an empty address", () => {
    expect(failure("")).toEqual({
      code: "validation_failed",
      message: "An email address is required",
    });
    expect(failure("   ").message).toBe("An email address is required");
  });

  it("accepts 255 characters and refuses 256", () => {
    const domain = "@example.com";
    const local = (n: number) => "a".repeat(n - domain.length);
    expect(normalizeEmail(local(255) + domain)).toMatchObject({ ok: true });
    expect(failure(local(256) + domain)).toEqual({
      code: "validation_failed",
      message: "An email address is too long",
    });
  });
});
