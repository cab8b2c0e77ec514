import { generateJwtKey } from "@authsvc/adapters";
import { describe, expect, it } from "vitest";
import { loadConfig } from "../../composition/config.js";

/** The least a production (non-embedded) configuration needs. */
const production = {
  AUTHSVC_DB_DATABASE_URL: "postgres://authsvc:pw@db.internal:5432/authsvc",
  AUTHSVC_SITE_URL: "https://app.example.com",
  AUTHSVC_API_EXTERNAL_URL: "https://auth.example.com",
  AUTHSVC_JWT_SECRET: "jwt-secret-for-tests-0123456789",
};
const configOf = (extra: Record<string, string>) => {
  const result = loadConfig({ ...production, ...extra });
  if (!result.ok) throw new Error(result.problems.join("\n"));
  return result.config;
};
const problemsOf = (vars: Record<string, string>) => {
  const result = loadConfig(vars);
  if (result.ok) throw new Error("expected problems, got a config");
  return result.problems;
};

describe("signing keys (JWT_KEYS)", () => {
  it("is unset by default: HS256 with JWT_SECRET", () => {
    expect(configOf({}).jwt.keys).toBeUndefined();
  });

  it("reads a key set and names its signing key", () => {
    const signing = generateJwtKey("ES256", { kid: "current" });
    const previous = generateJwtKey("RS256", { kid: "previous", signs: false });
    const { keys } = configOf({ AUTHSVC_JWT_KEYS: JSON.stringify([previous, signing]) }).jwt;
    expect(keys?.signing).toMatchObject({ kid: "current", alg: "ES256" });
    expect([...(keys?.byKid.keys() ?? [])]).toEqual(["previous", "current"]);
  });

  it("refuses a bad set at start with every problem, never quoting key material", () => {
    const short = { ...generateJwtKey("HS256", { kid: "hs" }), k: "c2VjcmV0LWJ5dGVz" };
    const problems = problemsOf({
      ...production,
      AUTHSVC_JWT_KEYS: JSON.stringify([short, { ...generateJwtKey("ES256", { kid: "x" }), alg: "ES384" }]),
    });
    expect(problems).toEqual([
      'AUTHSVC_JWT_KEYS: key 1 (kid "hs"): "k" must hold at least 32 bytes (base64url), got 12; key 2 (kid "x"): alg "ES384" is not supported (expected one of HS256, RS256, RS512, ES256, ES512, EdDSA)',
    ]);
    expect(problemsOf({ ...production, AUTHSVC_JWT_KEYS: "{not json" })[0]).toMatch(
      /^AUTHSVC_JWT_KEYS: expected a JSON array of JWKs \(/,
    );
    expect(problemsOf({ ...production, AUTHSVC_JWT_KEYS: "{not json" })[0]).not.toContain("{not json");
  });
});
