import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it, vi } from "vitest";
import { type Config, type LoadOptions, loadConfig, readEnvironment } from "./config.js";

type Vars = Record<string, string | undefined>;

const JWT_SECRET = "jwt-secret-for-tests-0123456789";
const DB_PASSWORD = "db-pa55word-xyz";
/** The least a production (non-embedded) configuration needs. */
const production: Vars = {
  AUTHSVC_DB_DATABASE_URL: `postgres://authsvc:${DB_PASSWORD}@db.internal:5432/authsvc`,
  AUTHSVC_SITE_URL: "https://app.example.com",
  AUTHSVC_API_EXTERNAL_URL: "https://auth.example.com",
  AUTHSVC_JWT_SECRET: JWT_SECRET,
};

function load(vars: Vars, options?: LoadOptions): { config: Config; notices: string[] } {
  const result = loadConfig(vars, options);
  if (!result.ok) throw new Error(`unexpected problems:\n${result.problems.join("\n")}`);
  return result;
}
const configOf = (extra: Vars) => load({ ...production, ...extra }).config;

function problemsOf(vars: Vars, options?: LoadOptions): string[] {
  const result = loadConfig(vars, options);
  if (result.ok) throw new Error("expected problems, got a config");
  return result.problems;
}

describe("defaults", () => {
  it("applies the documented defaults to a minimal production configuration", () => {
    const { config, notices } = load(production);
    expect(notices).toEqual([]);
    expect(config.embedded).toBe(false);
    expect(config.api).toEqual({
      host: "0.0.0.0",
      port: 8081,
      externalUrl: "https://auth.example.com",
      endpoint: undefined,
      requestIdHeader: undefined,
      maxRequestDurationMs: 10_000,
      bodyTimeoutMs: 5_000,
      trustedProxyHops: 0,
      trustedProxies: [],
      maxConcurrentRequests: 64,
      maxQueuedRequests: 4096,
      maxQueueWaitMs: 10_000,
      messageConcurrency: 1,
      corsAllowedHeaders: [],
      basePaths: ["/", "/auth/v1"],
    });
    expect(config.db).toEqual({
      driver: "postgres",
      url: production.AUTHSVC_DB_DATABASE_URL,
      maxPoolSize: 10,
      preparedStatements: true,
      namespace: "auth",
      connMaxIdleTimeMs: 60_000,
      connMaxLifetimeMs: 1_800_000,
      connectTimeoutMs: 5_000,
      startupTimeoutMs: 30_000,
      urlVariable: "AUTHSVC_DB_DATABASE_URL",
    });
    expect(config.jwt).toEqual({
      secret: JWT_SECRET,
      exp: 3600,
      aud: "authenticated",
      issuer: undefined,
      adminGroupName: "admin",
      defaultGroupName: "authenticated",
      adminRoles: ["service_role", "supabase_admin"],
    });
    expect(config.log).toEqual({ level: "info", file: undefined });
    expect(config.password).toMatchObject({ minLength: 6, requiredCharacters: [] });
    expect(config.security).toMatchObject({
      refreshTokenRotationEnabled: true,
      refreshTokenReuseIntervalMs: 10_000,
      updatePasswordRequireReauthentication: false,
      captcha: { enabled: false, provider: "hcaptcha", timeoutMs: 10_000 },
    });
    expect(config.rateLimit).toEqual({
      header: undefined,
      emailSent: 30,
      smsSent: 30,
      tokenPer5Min: 150,
      web3Per5Min: 30,
      verifyPer5Min: 30,
      otpPer5Min: 30,
      authorizePer5Min: 30,
      oauthAuthorizePer5Min: 60,
    });
    expect(config.metrics).toEqual({
      enabled: false,
      exporter: "opentelemetry",
      prometheus: { host: "0.0.0.0", port: 9100 },
    });
    expect(config.tracing).toEqual({ enabled: false, exporter: "opentelemetry" });
    expect(config.dataDir).toBe("./.authsvc");
    expect(config.disableSignup).toBe(false);
  });

  it("defaults sign-in methods, email and SMS as the reference does", () => {
    const { external, smtp, mailer, sms } = configOf({});
    expect([external.email.enabled, external.phone.enabled, external.anonymousUsers.enabled]).toEqual([
      true,
      false,
      false,
    ]);
    expect(external.github).toEqual({
      enabled: false,
      clientId: undefined,
      secret: undefined,
      redirectUri: undefined,
      url: undefined,
    });
    expect(smtp).toMatchObject({ host: undefined, port: 587, maxFrequency: 900 });
    expect(mailer).toEqual({
      autoconfirm: false,
      secureEmailChangeEnabled: true,
      otpExp: 3600,
      otpLength: 6,
      subjects: {
        invite: "You have been invited",
        confirmation: "Confirm Your Signup",
        recovery: "Reset Your Password",
        magic_link: "Your Magic Link",
        email_change: "Confirm Email Change",
        reauthentication: "Confirm reauthentication",
        password_changed_notification: "Your password was changed",
        email_changed_notification: "Your email address was changed",
        phone_changed_notification: "Your phone number was changed",
        identity_linked_notification: "A new sign-in method was linked to your account",
        identity_unlinked_notification: "A sign-in method was removed from your account",
        mfa_factor_enrolled_notification: "A new verification method was added to your account",
        mfa_factor_unenrolled_notification: "A verification method was removed from your account",
      },
      urlPaths: {
        invite: "/verify",
        confirmation: "/verify",
        recovery: "/verify",
        magic_link: "/verify",
        email_change: "/verify",
      },
      templates: {},
      // Every account-change notification is off unless switched on, as in the reference.
      notifications: {
        password_changed_notification: false,
        email_changed_notification: false,
        phone_changed_notification: false,
        identity_linked_notification: false,
        identity_unlinked_notification: false,
        mfa_factor_enrolled_notification: false,
        mfa_factor_unenrolled_notification: false,
      },
      localized: { subjects: {}, templates: {} },
    });
    expect(sms).toEqual({
      autoconfirm: false,
      maxFrequency: 60,
      otpExp: 60,
      otpLength: 6,
      provider: undefined,
      testOtp: { codes: new Map(), validUntil: null },
    });
  });

  it("returns a frozen config, so a stray write fails instead of changing behaviour", () => {
    const config = configOf({});
    expect(Object.isFrozen(config.jwt)).toBe(true);
    expect(Object.isFrozen(config.jwt.adminRoles)).toBe(true);
  });
});

describe("values of each kind", () => {
  it("reads booleans in their accepted spellings", () => {
    const config = configOf({
      AUTHSVC_DISABLE_SIGNUP: "YES",
      AUTHSVC_EXTERNAL_EMAIL_ENABLED: "off",
      AUTHSVC_MAILER_AUTOCONFIRM: "1",
    });
    expect([config.disableSignup, config.external.email.enabled, config.mailer.autoconfirm]).toEqual([
      true,
      false,
      true,
    ]);
  });

  it("reads numbers, seconds and durations into their units", () => {
    const config = configOf({
      AUTHSVC_DB_MAX_POOL_SIZE: "20",
      AUTHSVC_JWT_EXP: "900",
      AUTHSVC_SMTP_MAX_FREQUENCY: "60",
      AUTHSVC_API_MAX_REQUEST_DURATION: "1m30s",
      AUTHSVC_SECURITY_CAPTCHA_TIMEOUT: "5",
      AUTHSVC_SECURITY_REFRESH_TOKEN_REUSE_INTERVAL: "2s",
      AUTHSVC_MAILER_OTP_LENGTH: "8",
    });
    expect(config.db.maxPoolSize).toBe(20);
    expect(config.jwt.exp).toBe(900);
    expect(config.smtp.maxFrequency).toBe(60);
    expect(config.api.maxRequestDurationMs).toBe(90_000);
    expect(config.security.captcha.timeoutMs).toBe(5000);
    expect(config.security.refreshTokenReuseIntervalMs).toBe(2000);
    expect(config.mailer.otpLength).toBe(8);
  });

  it("keeps the body time limit inside the request deadline", () => {
    expect(configOf({ AUTHSVC_API_BODY_TIMEOUT: "1500ms" }).api.bodyTimeoutMs).toBe(1_500);
    expect(configOf({ AUTHSVC_API_MAX_REQUEST_DURATION: "1s" }).api.bodyTimeoutMs).toBe(500);
    expect(configOf({ AUTHSVC_API_MAX_REQUEST_DURATION: "1m" }).api.bodyTimeoutMs).toBe(5_000);
    expect(problemsOf({ ...production, AUTHSVC_API_BODY_TIMEOUT: "10s" })).toEqual([
      "AUTHSVC_API_BODY_TIMEOUT: must be shorter than AUTHSVC_API_MAX_REQUEST_DURATION (10000 ms)",
    ]);
  });

  it("reads lists, enumerations, identifiers and URLs", () => {
    const config = configOf({
      AUTHSVC_URI_ALLOW_LIST: "https://app.example.com/*, http://localhost:3000/**,",
      AUTHSVC_JWT_ADMIN_ROLES: "service_role",
      AUTHSVC_CORS_ALLOWED_HEADERS: "X-Tenant",
      AUTHSVC_LOG_LEVEL: "Warn",
      AUTHSVC_METRICS_EXPORTER: "prometheus",
      AUTHSVC_DB_NAMESPACE: "auth_v2",
      AUTHSVC_MAILER_URLPATHS_CONFIRMATION: "/auth/v1/verify",
      AUTHSVC_MAILER_TEMPLATES_INVITE: "https://cdn.example.com/invite.html",
    });
    expect(config.uriAllowList).toEqual(["https://app.example.com/*", "http://localhost:3000/**"]);
    expect(config.jwt.adminRoles).toEqual(["service_role"]);
    expect(config.api.corsAllowedHeaders).toEqual(["X-Tenant"]);
    expect(config.log.level).toBe("warn");
    expect(config.metrics.exporter).toBe("prometheus");
    expect(config.db.namespace).toBe("auth_v2");
    expect(config.mailer.urlPaths.confirmation).toBe("/auth/v1/verify");
    expect(config.mailer.urlPaths.recovery).toBe("/verify");
    expect(config.mailer.templates).toEqual({ invite: "https://cdn.example.com/invite.html" });
  });

  it("splits required password characters on unescaped colons", () => {
    const config = configOf({ AUTHSVC_PASSWORD_REQUIRED_CHARACTERS: "abc:ABC:0123456789:\\:!" });
    expect(config.password.requiredCharacters).toEqual(["abc", "ABC", "0123456789", ":!"]);
  });

  it("raises a minimum password length below 6 to 6, and says so", () => {
    const { config, notices } = load({ ...production, AUTHSVC_PASSWORD_MIN_LENGTH: "4" });
    expect(config.password.minLength).toBe(6);
    expect(notices).toEqual(["AUTHSVC_PASSWORD_MIN_LENGTH is 4: raised to 6, the least allowed"]);
    expect(configOf({ AUTHSVC_PASSWORD_MIN_LENGTH: "12" }).password.minLength).toBe(12);
  });

  it("uses the admin email as sender name unless one is given", () => {
    const mail = { AUTHSVC_SMTP_HOST: "mail.example.com", AUTHSVC_SMTP_ADMIN_EMAIL: "noreply@example.com" };
    expect(configOf(mail).smtp).toMatchObject({
      host: "mail.example.com",
      senderName: "noreply@example.com",
    });
    expect(configOf({ ...mail, AUTHSVC_SMTP_SENDER_NAME: "Example" }).smtp.senderName).toBe("Example");
  });
});

describe("names and sources", () => {
  it("reads unprefixed aliases, the prefixed name winning", () => {
    const bare = load({
      PORT: "9000",
      DATABASE_URL: "postgres://u@db/a",
      LOG_LEVEL: "debug",
      API_EXTERNAL_URL: "https://bare.example.com",
      AUTHSVC_SITE_URL: "https://app.example.com",
      AUTHSVC_JWT_SECRET: JWT_SECRET,
    }).config;
    expect([bare.api.port, bare.db.url, bare.log.level, bare.api.externalUrl]).toEqual([
      9000,
      "postgres://u@db/a",
      "debug",
      "https://bare.example.com",
    ]);
    const both = configOf({
      PORT: "9000",
      AUTHSVC_PORT: "9001",
      AUTHSVC_API_PORT: "9002",
      DATABASE_URL: "postgres://u@other/a",
      LOG_LEVEL: "debug",
      AUTHSVC_LOG_LEVEL: "error",
      API_EXTERNAL_URL: "https://bare.example.com",
    });
    expect([both.api.port, both.db.url, both.log.level, both.api.externalUrl]).toEqual([
      9002,
      production.AUTHSVC_DB_DATABASE_URL,
      "error",
      "https://auth.example.com",
    ]);
    expect(configOf({ PORT: "9000", AUTHSVC_PORT: "9001" }).api.port).toBe(9001);
  });

  it("treats an empty value as unset, so it neither hides an alias nor fails parsing", () => {
    const config = configOf({
      AUTHSVC_API_PORT: "",
      PORT: "7000",
      AUTHSVC_JWT_EXP: "  ",
      AUTHSVC_SMTP_HOST: "",
    });
    expect([config.api.port, config.jwt.exp, config.smtp.host]).toEqual([7000, 3600, undefined]);
  });

  it("takes .env values unless the environment sets them", () => {
    const dir = mkdtempSync(join(tmpdir(), "authsvc-config-"));
    try {
      writeFileSync(
        join(dir, ".env"),
        `DATABASE_URL=${production.AUTHSVC_DB_DATABASE_URL}\nAUTHSVC_SITE_URL=https://from-file.example.com\n` +
          `AUTHSVC_API_EXTERNAL_URL=https://auth.example.com\nAUTHSVC_JWT_SECRET=${JWT_SECRET}\nAUTHSVC_JWT_EXP=60\n`,
      );
      const config = load(readEnvironment(dir, { AUTHSVC_JWT_EXP: "120" })).config;
      expect([config.siteUrl, config.jwt.exp, config.embedded]).toEqual([
        "https://from-file.example.com",
        120,
        false,
      ]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("embedded mode", () => {
  const DEV_SECRET = "dev-secret-generated-0123456789ab";

  it("applies development defaults when no database URL is set, and says which", () => {
    const devJwtSecret = vi.fn(() => DEV_SECRET);
    const { config, notices } = load({ AUTHSVC_API_PORT: "5555" }, { devJwtSecret });
    expect(config.embedded).toBe(true);
    expect(config.db.url).toBeUndefined();
    expect(config.siteUrl).toBe("http://localhost:3000");
    expect(config.api.externalUrl).toBe("http://localhost:5555");
    expect(config.api.host).toBe("127.0.0.1");
    expect(config.jwt.secret).toBe(DEV_SECRET);
    expect(devJwtSecret).toHaveBeenCalledTimes(1);
    expect(notices).toEqual([
      "No database URL set (AUTHSVC_DB_DATABASE_URL or DATABASE_URL): using the embedded database in ./.authsvc",
      "AUTHSVC_SITE_URL not set: using http://localhost:3000 (embedded mode)",
      "AUTHSVC_API_HOST not set: listening on 127.0.0.1 only (embedded mode)",
      "AUTHSVC_API_EXTERNAL_URL not set: using http://localhost:5555 (embedded mode)",
      "AUTHSVC_JWT_SECRET not set: using the development secret kept in ./.authsvc/jwt-secret (embedded mode)",
      "AUTHSVC_EXTERNAL_PHONE_ENABLED not set: phone sign-ins are on (embedded mode)",
      "AUTHSVC_SMS_PROVIDER not set: text messages are written to the log (embedded mode)",
    ]);
    expect([config.external.phone.enabled, config.sms.provider]).toEqual([true, "log"]);
    expect(notices.join("\n")).not.toContain(DEV_SECRET);
  });

  it("uses values that are set, and asks for no development secret then", () => {
    const devJwtSecret = vi.fn(() => DEV_SECRET);
    const { config, notices } = load(
      {
        ...production,
        AUTHSVC_DB_DATABASE_URL: undefined,
        AUTHSVC_DATA_DIR: "/var/lib/authsvc",
        AUTHSVC_API_HOST: "0.0.0.0",
        AUTHSVC_EXTERNAL_PHONE_ENABLED: "false",
        AUTHSVC_SMS_PROVIDER: "log",
      },
      { devJwtSecret },
    );
    expect([
      config.embedded,
      config.siteUrl,
      config.api.externalUrl,
      config.jwt.secret,
      config.api.host,
      config.external.phone.enabled,
    ]).toEqual([true, "https://app.example.com", "https://auth.example.com", JWT_SECRET, "0.0.0.0", false]);
    expect(devJwtSecret).not.toHaveBeenCalled();
    expect(notices).toEqual([
      "No database URL set (AUTHSVC_DB_DATABASE_URL or DATABASE_URL): using the embedded database in /var/lib/authsvc",
    ]);
  });

  it("still validates what is set", () => {
    expect(
      problemsOf(
        { AUTHSVC_SITE_URL: "localhost:3000", AUTHSVC_JWT_SECRET: "short" },
        { devJwtSecret: () => DEV_SECRET },
      ),
    ).toEqual([
      'AUTHSVC_SITE_URL: expected an absolute http(s) URL, got "localhost:3000"',
      "AUTHSVC_JWT_SECRET: expected at least 16 characters",
    ]);
  });

  it("needs a JWT secret from somewhere", () => {
    expect(problemsOf({})).toEqual(["AUTHSVC_JWT_SECRET: required"]);
    expect(problemsOf({}, { devJwtSecret: () => "short" })).toEqual([
      "AUTHSVC_JWT_SECRET: the development secret is shorter than 16 characters",
    ]);
  });
});
