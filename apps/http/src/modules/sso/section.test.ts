import { generateKeyPairSync } from "node:crypto";
import { describe, expect, it } from "vitest";
import { authSettingsOf } from "../../composition/auth-settings.js";
import { loadConfig } from "../../composition/config.js";
import { MODULES } from "../../composition/modules.js";
import { settingsOf } from "../../infrastructure/server/settings-view.js";

const production = {
  AUTHSVC_DB_DATABASE_URL: "postgres://authsvc@db.internal:5432/authsvc",
  AUTHSVC_SITE_URL: "https://app.example.com",
  AUTHSVC_API_EXTERNAL_URL: "https://auth.example.com",
  AUTHSVC_JWT_SECRET: "jwt-secret-for-tests-0123456789",
};
const devJwtSecret = () => "dev-secret-0123456789abcdef";
const problemsOf = (vars: Record<string, string>) => {
  const result = loadConfig(vars, { devJwtSecret });
  return result.ok ? [] : result.problems;
};
const rsaKey = (bits: number, type: "pkcs1" | "pkcs8" = "pkcs1") =>
  generateKeyPairSync("rsa", { modulusLength: bits, publicExponent: 65537 })
    .privateKey.export({ format: "der", type })
    .toString("base64");

describe("SAML settings", () => {
  it("are off by default, with the reference's periods and limits", () => {
    const result = loadConfig(production, { devJwtSecret });
    if (!result.ok) throw new Error(result.problems.join("\n"));
    expect(settingsOf(result.config, MODULES).saml_enabled).toBe(false);
    expect(authSettingsOf(result.config).sso).toEqual({
      enabled: false,
      relayStateValidityMs: 120_000,
      rateLimitSsoPer5Min: 30,
      rateLimitAssertionPer5Min: 15,
    });
  });

  it("need a key when on outside embedded mode, and take PKCS#1 or PKCS#8", () => {
    expect(problemsOf({ ...production, AUTHSVC_SAML_ENABLED: "true" }).join("\n")).toContain(
      "AUTHSVC_SAML_PRIVATE_KEY",
    );
    for (const key of [rsaKey(2048), rsaKey(2048, "pkcs8")]) {
      expect(
        problemsOf({ ...production, AUTHSVC_SAML_ENABLED: "true", AUTHSVC_SAML_PRIVATE_KEY: key }),
      ).toEqual([]);
    }
  });

  it("refuse a short, a non-RSA or an unreadable key without quoting it", () => {
    const ec = generateKeyPairSync("ec", { namedCurve: "P-256" })
      .privateKey.export({ format: "der", type: "pkcs8" })
      .toString("base64");
    for (const [key, reason] of [
      [rsaKey(1024), "shorter than 2048 bits"],
      [ec, "not an RSA key"],
      ["bm90IGEga2V5", "not a base64 DER RSA private key"],
    ] as const) {
      const problems = problemsOf({
        ...production,
        AUTHSVC_SAML_ENABLED: "true",
        AUTHSVC_SAML_PRIVATE_KEY: key,
      });
      expect(problems.join("\n")).toContain(reason);
      expect(problems.join("\n")).not.toContain(key.slice(0, 20));
    }
  });

  it("read 0 as the default relay state validity", () => {
    const result = loadConfig(
      { ...production, AUTHSVC_SAML_RELAY_STATE_VALIDITY_PERIOD: "0", AUTHSVC_SAML_ENABLED: "false" },
      { devJwtSecret },
    );
    if (!result.ok) throw new Error(result.problems.join("\n"));
    expect(authSettingsOf(result.config).sso.relayStateValidityMs).toBe(120_000);
  });
});
