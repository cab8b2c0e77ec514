import { describe, expect, it } from "vitest";
import { scrubText } from "./logger.js";
import { maskUrlPasswords } from "./url-password.js";

/**
 * Database URLs as operators write them, the password unencoded in every spelling the URL parser (and
 * postgres.js) reads differently from what was meant: digits then `/`, `?` or `#` read as a port, an
 * `@` or `:` in the password, an empty user.
 */
const SPELLINGS: { url: string; password: string; masked: string }[] = [
  { url: "postgres://app:s3cret@db:5432/app", password: "s3cret", masked: "postgres://app:***@db:5432/app" },
  { url: "postgres://app:123#abc@db/app", password: "123#abc", masked: "postgres://app:***@db/app" },
  { url: "postgres://app:2024/secret@db/app", password: "2024/secret", masked: "postgres://app:***@db/app" },
  { url: "postgres://app:65535?x@db/app", password: "65535?x", masked: "postgres://app:***@db/app" },
  { url: "postgresql://app:12345@db/app", password: "12345", masked: "postgresql://app:***@db/app" },
  { url: "postgres://app:p@ss@db/app", password: "p@ss", masked: "postgres://app:***@db/app" },
  { url: "postgres://app:a:b#c@db/app", password: "a:b#c", masked: "postgres://app:***@db/app" },
  { url: "postgres://:only-pw@db/app", password: "only-pw", masked: "postgres://:***@db/app" },
  { url: "postgres://app:%40pw%2F@db/app", password: "%40pw%2F", masked: "postgres://app:***@db/app" },
  {
    url: "postgres://app@db/app?password=qs-secret",
    password: "qs-secret",
    masked: "postgres://app@db/app?password=***",
  },
];

describe("database URL masking", () => {
  it.each(SPELLINGS)("maskUrlPasswords($url) names no password", ({ url, password, masked }) => {
    expect(maskUrlPasswords(url)).toBe(masked);
    expect(maskUrlPasswords(url)).not.toContain(password);
  });

  it.each(SPELLINGS)("an error text with $url names no password", ({ url, password }) => {
    const text = `cannot connect to the database of DATABASE_URL (${url}): getaddrinfo ENOTFOUND app`;
    for (const scrubbed of [maskUrlPasswords(text), scrubText(text)]) {
      expect(scrubbed).not.toContain(password);
      expect(scrubbed).toContain("getaddrinfo ENOTFOUND app");
    }
  });

  it("leaves a URL without a password as it is", () => {
    expect(maskUrlPasswords("postgres://app@db:5432/app")).toBe("postgres://app@db:5432/app");
    expect(maskUrlPasswords("postgres://db/app")).toBe("postgres://db/app");
  });
});
