import { describe, expect, it } from "vitest";
import { configVariables, loadConfig } from "../composition/config.js";
import { SMS_PROVIDERS } from "../infrastructure/sms/section.js";
import { EXTERNAL_PROVIDERS } from "../modules/external/section.js";
import type { LoadOptions } from "./load.js";
import type { Config } from "./types.js";

// Problems loadConfig reports. Successful loading is tested in ../config.test.ts.

type Vars = Record<string, string | undefined>;

const JWT_SECRET = "jwt-secret-for-tests-0123456789";
const DB_PASSWORD = "db-pa55word-xyz";
const production: Vars = {
  AUTHSVC_DB_DATABASE_URL: `postgres://authsvc:${DB_PASSWORD}@db.internal:5432/authsvc`,
  AUTHSVC_SITE_URL: "https://app.example.com",
  AUTHSVC_API_EXTERNAL_URL: "https://auth.example.com",
  AUTHSVC_JWT_SECRET: JWT_SECRET,
};

function configOf(extra: Vars): Config {
  const result = loadConfig({ ...production, ...extra });
  if (!result.ok) throw new Error(`unexpected problems:\n${result.problems.join("\n")}`);
  return result.config;
}

function problemsOf(vars: Vars, options?: LoadOptions): string[] {
  const result = loadConfig(vars, options);
  if (result.ok) throw new Error("expected problems, got a config");
  return result.problems;
}
const problemsWith = (extra: Vars) => problemsOf({ ...production, ...extra });

describe("problems", () => {
  it.each([
    [
      "AUTHSVC_DISABLE_SIGNUP",
      "sometimes",
      'expected true or false (or 1/0, yes/no, on/off), got "sometimes"',
    ],
    ["AUTHSVC_DB_MAX_POOL_SIZE", "lots", 'expected a whole number, got "lots"'],
    ["AUTHSVC_API_PORT", "70000", 'expected a whole number (0–65535), got "70000"'],
    ["AUTHSVC_SMS_OTP_LENGTH", "4", 'expected a whole number (6–10), got "4"'],
    ["AUTHSVC_JWT_EXP", "soon", 'expected a whole number of seconds, got "soon"'],
    ["AUTHSVC_JWT_EXP", "1h", 'expected a whole number of seconds, got "1h"'],
    [
      "AUTHSVC_SECURITY_CAPTCHA_TIMEOUT",
      "10 sec",
      'expected a duration such as 10s, 1m30s or 250ms, or a whole number of seconds, got "10 sec"',
    ],
    ["AUTHSVC_SITE_URL", "app.example.com", 'expected an absolute http(s) URL, got "app.example.com"'],
    ["AUTHSVC_LOG_LEVEL", "loud", 'expected one of panic, fatal, error, warn, info, debug, got "loud"'],
    ["AUTHSVC_DB_DRIVER", "mysql", 'expected one of postgres, got "mysql"'],
    ["AUTHSVC_TRACING_EXPORTER", "jaeger", 'expected one of opentelemetry, got "jaeger"'],
    [
      "AUTHSVC_SMS_PROVIDER",
      "twilio_verify",
      // The gateways are their definitions' list (infrastructure/sms/gateways/): a new one is not listed again here.
      `expected one of ${SMS_PROVIDERS.join(", ")}, got "twilio_verify"`,
    ],
    [
      "AUTHSVC_SECURITY_CAPTCHA_PROVIDER",
      "recaptcha",
      'expected one of hcaptcha, turnstile, got "recaptcha"',
    ],
    [
      "AUTHSVC_DB_NAMESPACE",
      "auth; drop",
      'expected a lowercase SQL identifier (a-z, 0-9, _; not starting with a digit; at most 63 characters), got "auth; drop"',
    ],
    ["AUTHSVC_SMTP_ADMIN_EMAIL", "noreply", 'expected an email address, got "noreply"'],
    ["AUTHSVC_RATE_LIMIT_VERIFY", "0", 'expected a whole number (at least 1), got "0"'],
  ])("%s=%j is refused", (name, value, message) => {
    expect(problemsWith({ [name]: value })).toEqual([`${name}: ${message}`]);
  });

  it("cuts long values short in messages", () => {
    const [problem] = problemsWith({ AUTHSVC_SITE_URL: "x".repeat(500) });
    expect(problem).toBe(`AUTHSVC_SITE_URL: expected an absolute http(s) URL, got "${"x".repeat(80)}…"`);
  });

  it("requires site URL, external URL and JWT secret outside embedded mode", () => {
    expect(problemsOf({ DATABASE_URL: production.AUTHSVC_DB_DATABASE_URL })).toEqual([
      "AUTHSVC_SITE_URL: required",
      "AUTHSVC_API_EXTERNAL_URL: required (or set API_EXTERNAL_URL)",
      "AUTHSVC_JWT_SECRET: required",
    ]);
  });

  it("refuses a short JWT secret without showing it", () => {
    expect(problemsWith({ AUTHSVC_JWT_SECRET: "tooshort" })).toEqual([
      "AUTHSVC_JWT_SECRET: expected at least 16 characters",
    ]);
  });

  it("requires each missing credential of an enabled provider", () => {
    expect(
      problemsWith({ AUTHSVC_EXTERNAL_GITHUB_ENABLED: "true", AUTHSVC_EXTERNAL_GITHUB_CLIENT_ID: "Iv1.abc" }),
    ).toEqual(["AUTHSVC_EXTERNAL_GITHUB_SECRET: required when AUTHSVC_EXTERNAL_GITHUB_ENABLED is true"]);
    expect(problemsWith({ AUTHSVC_EXTERNAL_ZOOM_ENABLED: "true" })).toEqual([
      "AUTHSVC_EXTERNAL_ZOOM_CLIENT_ID: required when AUTHSVC_EXTERNAL_ZOOM_ENABLED is true",
      "AUTHSVC_EXTERNAL_ZOOM_SECRET: required when AUTHSVC_EXTERNAL_ZOOM_ENABLED is true",
    ]);
  });

  it("turns on a provider with its client id and secret; the redirect URI and base URL are optional", () => {
    const config = configOf({
      AUTHSVC_EXTERNAL_GITHUB_ENABLED: "true",
      AUTHSVC_EXTERNAL_GITHUB_CLIENT_ID: "Iv1.abc",
      AUTHSVC_EXTERNAL_GITHUB_SECRET: "gh-s3cret",
    });
    expect(config.external.github).toEqual({
      enabled: true,
      clientId: "Iv1.abc",
      secret: "gh-s3cret",
      redirectUri: undefined,
      url: undefined,
    });
    expect(EXTERNAL_PROVIDERS.filter((id) => config.external[id].enabled)).toEqual(["github"]);
  });

  it("requires a base URL for Keycloak, which has no public host", () => {
    const keycloak = {
      AUTHSVC_EXTERNAL_KEYCLOAK_ENABLED: "true",
      AUTHSVC_EXTERNAL_KEYCLOAK_CLIENT_ID: "authsvc",
      AUTHSVC_EXTERNAL_KEYCLOAK_SECRET: "kc-secret",
      AUTHSVC_EXTERNAL_KEYCLOAK_REDIRECT_URI: "https://auth.example.com/callback",
    };
    expect(problemsWith(keycloak)).toEqual([
      "AUTHSVC_EXTERNAL_KEYCLOAK_URL: required when AUTHSVC_EXTERNAL_KEYCLOAK_ENABLED is true",
    ]);
    const url = "https://sso.example.com/realms/main";
    expect(configOf({ ...keycloak, AUTHSVC_EXTERNAL_KEYCLOAK_URL: url }).external.keycloak).toMatchObject({
      enabled: true,
      url,
      redirectUri: "https://auth.example.com/callback",
    });
  });

  it("requires the credentials of the selected SMS gateway only", () => {
    expect(problemsWith({ AUTHSVC_SMS_PROVIDER: "vonage", AUTHSVC_SMS_VONAGE_FROM: "Example" })).toEqual([
      "AUTHSVC_SMS_VONAGE_API_KEY: required when AUTHSVC_SMS_PROVIDER is vonage",
      "AUTHSVC_SMS_VONAGE_API_SECRET: required when AUTHSVC_SMS_PROVIDER is vonage",
    ]);
    const { sms } = configOf({
      AUTHSVC_SMS_PROVIDER: "twilio",
      AUTHSVC_SMS_TWILIO_ACCOUNT_SID: "AC123",
      AUTHSVC_SMS_TWILIO_AUTH_TOKEN: "tw-token",
      AUTHSVC_SMS_TWILIO_MESSAGE_SERVICE_SID: "MG456",
      AUTHSVC_SMS_TWILIO_BASE_URL: "http://127.0.0.1:4010",
    });
    expect(sms.provider === "twilio" && sms.gateway).toEqual({
      accountSid: "AC123",
      authToken: "tw-token",
      messageServiceSid: "MG456",
      baseUrl: "http://127.0.0.1:4010",
    });
  });

  it("starts with captcha on given a secret, and reads the verification URL and the Redis URL", () => {
    const config = configOf({
      AUTHSVC_SECURITY_CAPTCHA_ENABLED: "true",
      AUTHSVC_SECURITY_CAPTCHA_PROVIDER: "turnstile",
      AUTHSVC_SECURITY_CAPTCHA_SECRET: "captcha-secret",
      AUTHSVC_SECURITY_CAPTCHA_URL: "http://127.0.0.1:4020/siteverify",
      REDIS_URL: "redis://127.0.0.1:6379/2",
    });
    expect(config.security.captcha).toEqual({
      enabled: true,
      provider: "turnstile",
      secret: "captcha-secret",
      timeoutMs: 10_000,
      url: "http://127.0.0.1:4020/siteverify",
    });
    expect(config.rateLimit.redisUrl).toBe("redis://127.0.0.1:6379/2");
    expect(configOf({}).rateLimit.redisUrl).toBeUndefined();
    expect(problemsWith({ REDIS_URL: "http://127.0.0.1:6379" })).toEqual([
      'REDIS_URL: expected a redis:// or rediss:// URL, got "http://127.0.0.1:6379"',
    ]);
  });

  it("reads account-linking domains, the older list folded in under the newer pairs", () => {
    const config = configOf({
      AUTHSVC_EXPERIMENTAL_PROVIDER_LINKING_DOMAINS:
        " custom:github = social,custom:google=social,google=mine ",
      AUTHSVC_EXPERIMENTAL_PROVIDERS_WITH_OWN_LINKING_DOMAIN: "google,apple",
    });
    expect(config.security.providerLinkingDomains).toEqual({
      "custom:github": "social",
      "custom:google": "social",
      google: "mine",
      apple: "apple",
    });
    expect(configOf({}).security.providerLinkingDomains).toEqual({});
    expect(problemsWith({ AUTHSVC_EXPERIMENTAL_PROVIDER_LINKING_DOMAINS: "github:social" })).toEqual([
      'AUTHSVC_EXPERIMENTAL_PROVIDER_LINKING_DOMAINS: expected comma-separated provider=domain pairs, both non-empty (custom:github=social), got "github:social"',
    ]);
    expect(problemsWith({ AUTHSVC_EXPERIMENTAL_PROVIDER_LINKING_DOMAINS: "github=" })).toHaveLength(1);
  });

  it("requires an admin email with a mail server, and a secret with captcha", () => {
    expect(
      problemsWith({ AUTHSVC_SMTP_HOST: "mail.example.com", AUTHSVC_SECURITY_CAPTCHA_ENABLED: "on" }),
    ).toEqual([
      "AUTHSVC_SECURITY_CAPTCHA_SECRET: required when AUTHSVC_SECURITY_CAPTCHA_ENABLED is true",
      "AUTHSVC_SMTP_ADMIN_EMAIL: required when AUTHSVC_SMTP_HOST or AUTHSVC_MAILER_PROVIDER is set",
    ]);
  });

  it("reports unknown members of variable families", () => {
    expect(
      problemsWith({
        AUTHSVC_MAILER_SUBJECTS_BOGUS: "Hi",
        AUTHSVC_MAILER_URLPATHS_REAUTHENTICATION: "/verify",
        AUTHSVC_EXTERNAL_MYSPACE_ENABLED: "true",
        AUTHSVC_EXTERNAL_GITHUB_SCOPES: "repo",
        AUTHSVC_SMS_TWILIO_VERIFY_ACCOUNT_SID: "AC1",
        AUTHSVC_SOMETHING_ELSE: "ignored: not a family",
        AUTHSVC_EXTERNAL_EMPTY_ENABLED: "",
      }).map((problem) => problem.split(":")[0]),
    ).toEqual([
      "AUTHSVC_MAILER_SUBJECTS_BOGUS",
      "AUTHSVC_MAILER_URLPATHS_REAUTHENTICATION",
      "AUTHSVC_EXTERNAL_MYSPACE_ENABLED",
      "AUTHSVC_EXTERNAL_GITHUB_SCOPES",
      "AUTHSVC_SMS_TWILIO_VERIFY_ACCOUNT_SID",
    ]);
    expect(problemsWith({ AUTHSVC_MAILER_SUBJECTS_MAGICLINK: "Hi" })).toEqual([
      "AUTHSVC_MAILER_SUBJECTS_MAGICLINK: unknown variable (a typo?); kinds are INVITE, CONFIRMATION, RECOVERY, MAGIC_LINK, EMAIL_CHANGE, REAUTHENTICATION, PASSWORD_CHANGED_NOTIFICATION, EMAIL_CHANGED_NOTIFICATION, PHONE_CHANGED_NOTIFICATION, IDENTITY_LINKED_NOTIFICATION, IDENTITY_UNLINKED_NOTIFICATION, MFA_FACTOR_ENROLLED_NOTIFICATION, MFA_FACTOR_UNENROLLED_NOTIFICATION, each may end in a locale (_FR, _PT_BR)",
    ]);
  });

  it("collects every problem in one pass", () => {
    const problems = problemsOf({
      DATABASE_URL: "mysql://root@db/app",
      AUTHSVC_JWT_EXP: "soon",
      LOG_LEVEL: "loud",
      PORT: "http",
      AUTHSVC_EXTERNAL_APPLE_ENABLED: "maybe",
      AUTHSVC_EXTERNAL_ZOOM_ENABLED: "yes",
      AUTHSVC_SMS_PROVIDER: "textlocal",
      AUTHSVC_MAILER_TEMPLATES_RECOVERY: "recovery.html",
      AUTHSVC_MAILER_SUBJECTS_BOGUS: "x",
    });
    expect(problems).toEqual([
      'PORT: expected a whole number, got "http"',
      "DATABASE_URL: expected a postgres:// or postgresql:// connection URL",
      'LOG_LEVEL: expected one of panic, fatal, error, warn, info, debug, got "loud"',
      'AUTHSVC_JWT_EXP: expected a whole number of seconds, got "soon"',
      'AUTHSVC_EXTERNAL_APPLE_ENABLED: expected true or false (or 1/0, yes/no, on/off), got "maybe"',
      'AUTHSVC_MAILER_TEMPLATES_RECOVERY: expected an absolute http(s) URL, got "recovery.html"',
      "AUTHSVC_SITE_URL: required",
      "AUTHSVC_API_EXTERNAL_URL: required (or set API_EXTERNAL_URL)",
      "AUTHSVC_JWT_SECRET: required",
      "AUTHSVC_EXTERNAL_ZOOM_CLIENT_ID: required when AUTHSVC_EXTERNAL_ZOOM_ENABLED is true",
      "AUTHSVC_EXTERNAL_ZOOM_SECRET: required when AUTHSVC_EXTERNAL_ZOOM_ENABLED is true",
      "AUTHSVC_SMS_TEXTLOCAL_API_KEY: required when AUTHSVC_SMS_PROVIDER is textlocal",
      "AUTHSVC_SMS_TEXTLOCAL_SENDER: required when AUTHSVC_SMS_PROVIDER is textlocal",
      "AUTHSVC_MAILER_SUBJECTS_BOGUS: unknown variable (a typo?); kinds are INVITE, CONFIRMATION, RECOVERY, MAGIC_LINK, EMAIL_CHANGE, REAUTHENTICATION, PASSWORD_CHANGED_NOTIFICATION, EMAIL_CHANGED_NOTIFICATION, PHONE_CHANGED_NOTIFICATION, IDENTITY_LINKED_NOTIFICATION, IDENTITY_UNLINKED_NOTIFICATION, MFA_FACTOR_ENROLLED_NOTIFICATION, MFA_FACTOR_UNENROLLED_NOTIFICATION, each may end in a locale (_FR, _PT_BR)",
    ]);
  });

  it("never shows the value of a secret", () => {
    const secrets = {
      AUTHSVC_JWT_SECRET: "short-jwt-s3cr",
      AUTHSVC_DB_DATABASE_URL: `mysql://admin:${DB_PASSWORD}@db/app`,
      AUTHSVC_EXTERNAL_MYSPACE_SECRET: "myspace-s3cret-value",
      AUTHSVC_SMS_TWILIO_AUTH_TOKN: "twilio-t0ken-value",
      AUTHSVC_SMTP_PASS: "smtp-pa55-value",
      AUTHSVC_SMTP_HOST: "smtp://mail.example.com",
    };
    const problems = problemsOf({ ...production, ...secrets });
    expect(problems.map((p) => p.split(":")[0])).toEqual([
      "AUTHSVC_DB_DATABASE_URL",
      "AUTHSVC_JWT_SECRET",
      "AUTHSVC_SMTP_HOST",
      "AUTHSVC_SMTP_ADMIN_EMAIL",
      "AUTHSVC_EXTERNAL_MYSPACE_SECRET",
      "AUTHSVC_SMS_TWILIO_AUTH_TOKN",
    ]);
    const text = problems.join("\n");
    for (const value of ["short-jwt-s3cr", DB_PASSWORD, "myspace-s3cret", "twilio-t0ken", "smtp-pa55"]) {
      expect(text).not.toContain(value);
    }
  });
});

describe("switches of features that are not built yet", () => {
  const unbuilt = configVariables().filter((v) => v.unbuilt !== undefined);

  it("are none: every switch of the reference that authsvc reads turns on a built feature", () => {
    expect(unbuilt.map((v) => v.name)).toEqual([]);
  });

  it.each(unbuilt.map((v) => [v.name, v.unbuilt]))(
    "refuse %s=true, naming it and the feature",
    (name, feature) => {
      expect(problemsWith({ [name]: "on" })).toContain(
        `${name}: ${feature} is not built yet, so this switch cannot be turned on; unset it or set it to false`,
      );
    },
  );

  it("start when unset or false", () => {
    const off = Object.fromEntries(unbuilt.map((v) => [v.name, "false"]));
    const config = configOf(off);
    expect(config.security.captcha.enabled).toBe(false);
    expect(config.tracing.enabled).toBe(false);
    expect(config.metrics.enabled).toBe(false);
    expect(EXTERNAL_PROVIDERS.filter((id) => config.external[id].enabled)).toEqual([]);
  });
});
