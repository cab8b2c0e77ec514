import { describe, expect, it } from "vitest";
import { loadConfig } from "../composition/config.js";

/**
 * JWT secrets printed in public documentation and example files: anyone can sign an admin token with
 * them, so a server on a real database must not run with one.
 */
const PUBLISHED = [
  "super-secret-jwt-token-with-at-least-32-characters-long",
  "your-super-secret-jwt-token-with-at-least-32-characters-long",
  "37c304f8-51aa-419a-a1af-06154e63707a",
];

const production = {
  AUTHSVC_DB_DATABASE_URL: "postgres://authsvc@db.internal:5432/authsvc",
  AUTHSVC_SITE_URL: "https://app.example.com",
  AUTHSVC_API_EXTERNAL_URL: "https://auth.example.com",
};

const problemsOf = (vars: Record<string, string>) => {
  const result = loadConfig(vars);
  return result.ok ? [] : result.problems;
};

/** An HS256 key of AUTHSVC_JWT_KEYS whose bytes are `secret`. */
const octKey = (secret: string, kid = "legacy") => ({
  kty: "oct",
  kid,
  alg: "HS256",
  key_ops: ["sign", "verify"],
  k: Buffer.from(secret).toString("base64url"),
});

describe("a published JWT secret", () => {
  it.each(PUBLISHED)("%s is refused with a database URL, never echoed", (secret) => {
    const problems = problemsOf({ ...production, AUTHSVC_JWT_SECRET: secret });
    expect(problems).toEqual([
      expect.stringMatching(/^AUTHSVC_JWT_SECRET: this secret is published .*anyone can sign tokens with it/),
    ]);
    expect(problems.join("\n")).not.toContain(secret);
  });

  it("is refused as an HS256 key of AUTHSVC_JWT_KEYS too", () => {
    const problems = problemsOf({
      ...production,
      AUTHSVC_JWT_SECRET: "a-secret-of-this-deployment-only-0123",
      AUTHSVC_JWT_KEYS: JSON.stringify([octKey(PUBLISHED[0] as string)]),
    });
    expect(problems).toEqual([
      expect.stringMatching(/^AUTHSVC_JWT_KEYS: key "legacy" is a published secret/),
    ]);
  });

  it("is accepted in embedded mode, which runs on this machine only", () => {
    const result = loadConfig({ AUTHSVC_JWT_SECRET: PUBLISHED[0] as string });
    expect(result.ok).toBe(true);
  });

  it("is accepted outside it when AUTHSVC_JWT_ALLOW_PUBLISHED_SECRET says so (test suites)", () => {
    const result = loadConfig({
      ...production,
      AUTHSVC_JWT_SECRET: PUBLISHED[0] as string,
      AUTHSVC_JWT_ALLOW_PUBLISHED_SECRET: "true",
    });
    expect(result.ok ? [] : result.problems).toEqual([]);
  });

  it("a secret of one's own is accepted", () => {
    expect(
      problemsOf({ ...production, AUTHSVC_JWT_SECRET: "a-secret-of-this-deployment-only-0123" }),
    ).toEqual([]);
  });
});
