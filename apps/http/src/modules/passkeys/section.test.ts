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

const problemsOf = (vars: Record<string, string>) => {
  const result = loadConfig(vars, { devJwtSecret: () => "dev-secret-0123456789abcdef" });
  return result.ok ? [] : result.problems;
};

function load(vars: Record<string, string>) {
  const result = loadConfig(vars, { devJwtSecret: () => "dev-secret-0123456789abcdef" });
  if (!result.ok) throw new Error(result.problems.join("\n"));
  return result.config;
}

describe("passkeys and WebAuthn settings", () => {
  it("are off by default, with the reference's limits", () => {
    const config = load(production);
    expect(settingsOf(config, MODULES).passkeys_enabled).toBe(false);
    expect(authSettingsOf(config).passkeys).toEqual({ enabled: false, maxPerUser: 10, challengeExpiry: 300 });
    expect(authSettingsOf(config).webauthn.mfa).toEqual({ enrollEnabled: false, verifyEnabled: false });
  });

  it("read the relying party, a Go duration for the challenge, and show passkeys_enabled", () => {
    const config = load({
      ...production,
      AUTHSVC_PASSKEY_ENABLED: "true",
      AUTHSVC_PASSKEY_MAX_PASSKEYS_PER_USER: "3",
      AUTHSVC_WEBAUTHN_RP_ID: "example.com",
      AUTHSVC_WEBAUTHN_RP_DISPLAY_NAME: "Example",
      AUTHSVC_WEBAUTHN_RP_ORIGINS: "https://app.example.com, https://example.com",
      AUTHSVC_WEBAUTHN_CHALLENGE_EXPIRY_DURATION: "2m30s",
      AUTHSVC_MFA_WEB_AUTHN_ENROLL_ENABLED: "true",
    });
    expect(settingsOf(config, MODULES).passkeys_enabled).toBe(true);
    const settings = authSettingsOf(config);
    expect(settings.passkeys).toEqual({ enabled: true, maxPerUser: 3, challengeExpiry: 150 });
    expect(settings.webauthn).toEqual({
      rp: { id: "example.com", name: "Example", origins: ["https://app.example.com", "https://example.com"] },
      mfa: { enrollEnabled: true, verifyEnabled: false },
    });
  });

  it("require the relying party outside embedded mode once a WebAuthn feature is on", () => {
    expect(problemsOf({ ...production, AUTHSVC_PASSKEY_ENABLED: "true" })).toEqual([
      expect.stringMatching(/^AUTHSVC_WEBAUTHN_RP_ID: required/),
      expect.stringMatching(/^AUTHSVC_WEBAUTHN_RP_ORIGINS: required/),
    ]);
    expect(problemsOf({ ...production, AUTHSVC_MFA_WEB_AUTHN_VERIFY_ENABLED: "true" })).toHaveLength(2);
  });

  it("refuse an origin with a path or without a scheme", () => {
    for (const origin of ["https://app.example.com/login", "app.example.com", "ftp://example.com"]) {
      expect(
        problemsOf({
          ...production,
          AUTHSVC_PASSKEY_ENABLED: "true",
          AUTHSVC_WEBAUTHN_RP_ID: "example.com",
          AUTHSVC_WEBAUTHN_RP_ORIGINS: origin,
        }),
      ).toEqual([expect.stringContaining("AUTHSVC_WEBAUTHN_RP_ORIGINS: expected origins")]);
    }
  });

  it("default to localhost and the site's origin in embedded mode", () => {
    const config = load({
      AUTHSVC_PASSKEY_ENABLED: "true",
      AUTHSVC_DATA_DIR: "/tmp/authsvc-passkeys-config",
    });
    expect(authSettingsOf(config).webauthn.rp).toEqual({
      id: "localhost",
      name: "localhost",
      origins: ["http://localhost:3000"],
    });
  });
});
