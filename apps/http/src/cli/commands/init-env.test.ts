import { parseJwtKeys } from "@authsvc/adapters";
import { parse } from "dotenv";
import { describe, expect, it } from "vitest";
import { answerProblem, initEnv, parseInitArgs } from "./init-env.js";
import { LEGACY_SECRET_KID } from "./key-sets.js";

const answers = {
  "database-url": "postgres://authsvc:p%40ss@db.internal:5432/auth?sslmode=require",
  "site-url": "https://app.example.com",
  "api-external-url": "https://auth.example.com",
};

describe("authsvc init", () => {
  it("writes the three URLs and a fresh 64-character secret that dotenv reads back", () => {
    const vars = parse(initEnv(answers));
    expect(vars).toMatchObject({
      AUTHSVC_DATABASE_URL: answers["database-url"],
      AUTHSVC_SITE_URL: answers["site-url"],
      AUTHSVC_API_EXTERNAL_URL: answers["api-external-url"],
    });
    expect(vars.AUTHSVC_JWT_SECRET).toMatch(/^[A-Za-z0-9_-]{64}$/);
    expect(parse(initEnv(answers)).AUTHSVC_JWT_SECRET).not.toBe(vars.AUTHSVC_JWT_SECRET);
    expect(vars.AUTHSVC_JWT_KEYS).toBeUndefined();
  });

  it("with --keys, an asymmetric signing key and the secret kept as a verify-only key", () => {
    const vars = parse(initEnv(answers, "EdDSA"));
    expect(parseJwtKeys(vars.AUTHSVC_JWT_KEYS as string).ok).toBe(true);
    const keys = JSON.parse(vars.AUTHSVC_JWT_KEYS as string) as Record<string, unknown>[];
    expect(keys.map((key) => [key.alg, key.key_ops])).toEqual([
      ["EdDSA", ["sign", "verify"]],
      ["HS256", ["verify"]],
    ]);
    expect(keys[1]).toMatchObject({
      kid: LEGACY_SECRET_KID,
      k: Buffer.from(vars.AUTHSVC_JWT_SECRET as string).toString("base64url"),
    });
  });

  it("reads its flags and refuses unknown ones and a lone --alg", () => {
    expect(parseInitArgs(["--site-url", "https://a.example", "--keys", "--force"])).toEqual({
      answers: { "site-url": "https://a.example" },
      file: ".env",
      force: true,
      keys: "ES256",
    });
    expect(parseInitArgs(["--alg", "RS256"])).toEqual({ error: "--alg goes with --keys" });
    expect(parseInitArgs(["--secret", "x"])).toMatchObject({
      error: expect.stringMatching(/Unknown option/),
    });
  });

  it("refuses answers that are not the URLs asked for", () => {
    expect(answerProblem("database-url", "mysql://x/y")).toMatch(/postgres/);
    expect(answerProblem("site-url", "not a url")).toBe("--site-url: not a URL");
    expect(answerProblem("api-external-url", "ftp://x")).toMatch(/http or https/);
    expect(answerProblem("database-url", answers["database-url"])).toBeNull();
  });
});
