import { generateKeyPairSync, randomUUID } from "node:crypto";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loadConfig } from "@authsvc/http";
import { afterAll, describe, expect, it, vi } from "vitest";
import { stringify } from "yaml";
import { REFUSED_TWILIO, suiteServers } from "../scripts/auth-js-suite/compose.js";

/**
 * `npm run suite:auth-js` configures its servers from the auth-js checkout's compose file. Its shape
 * is kept here (the suite's four GoTrue services, key material made afresh), so that a change of the
 * configuration's variables that would stop those servers from starting, or leave a GoTrue name unread,
 * fails in `npm test` rather than in the next run of the suite.
 */
const SECRET = "37c304f8-51aa-419a-a1af-06154e63707a";
const rsa = generateKeyPairSync("rsa", { modulusLength: 2048 }).privateKey.export({ format: "jwk" });
const KEYS = JSON.stringify([
  {
    kty: "oct",
    k: "Z7-AyPyChGNcQsX16cPBV-pPBo4q-zckDxkq1VZjATo",
    kid: randomUUID(),
    key_ops: ["sign", "verify"],
    alg: "HS256",
  },
  { ...rsa, kid: randomUUID(), key_ops: ["verify"], alg: "RS256" },
]);
/** A value compose takes from the shell: `${NAME}`. */
const fromShell = (name: string) => `\${${name}}`;
const common = (port: number) => ({
  GOTRUE_JWT_SECRET: SECRET,
  GOTRUE_JWT_EXP: 3600,
  GOTRUE_DB_DRIVER: "postgres",
  DB_NAMESPACE: "auth",
  GOTRUE_API_HOST: "0.0.0.0",
  PORT: port,
  API_EXTERNAL_URL: `http://localhost:${port}`,
  GOTRUE_SITE_URL: `http://localhost:${port}`,
  GOTRUE_LOG_LEVEL: "DEBUG",
  GOTRUE_OPERATOR_TOKEN: "super-secret-operator-token",
  DATABASE_URL: "postgres://postgres:postgres@db:5432/postgres?sslmode=disable",
  GOTRUE_SMTP_HOST: "mail",
  GOTRUE_SMTP_PORT: 2500,
  GOTRUE_SMTP_USER: "GOTRUE_SMTP_USER",
  GOTRUE_SMTP_PASS: "GOTRUE_SMTP_PASS",
  GOTRUE_SMTP_ADMIN_EMAIL: "admin@email.com",
  GOTRUE_COOKIE_KEY: "sb",
});
const compose = {
  services: {
    gotrue: {
      image: "supabase/auth:v2.176.0",
      environment: {
        ...common(9999),
        GOTRUE_MAILER_URLPATHS_CONFIRMATION: "/verify",
        GOTRUE_URI_ALLOW_LIST: "https://supabase.io/docs",
        GOTRUE_MAILER_AUTOCONFIRM: "false",
        GOTRUE_EXTERNAL_GOOGLE_ENABLED: "true",
        GOTRUE_EXTERNAL_GOOGLE_CLIENT_ID: "53566906701-example.apps.googleusercontent.com",
        GOTRUE_EXTERNAL_GOOGLE_SECRET: "Sm3s8RE85rDcS36iMy8YjrpC",
        GOTRUE_EXTERNAL_GOOGLE_REDIRECT_URI: "http://localhost:9999/callback",
        GOTRUE_MAILER_SUBJECTS_CONFIRMATION: "Please confirm",
        GOTRUE_EXTERNAL_PHONE_ENABLED: "true",
        GOTRUE_SMS_PROVIDER: "twilio",
        GOTRUE_SMS_TWILIO_ACCOUNT_SID: fromShell("GOTRUE_SMS_TWILIO_ACCOUNT_SID"),
        GOTRUE_SMS_TWILIO_AUTH_TOKEN: fromShell("GOTRUE_SMS_TWILIO_AUTH_TOKEN"),
        GOTRUE_SMS_TWILIO_MESSAGE_SERVICE_SID: fromShell("GOTRUE_SMS_TWILIO_MESSAGE_SERVICE_SID"),
        GOTRUE_SMS_AUTOCONFIRM: "false",
      },
    },
    autoconfirm: {
      image: "supabase/auth:v2.176.0",
      environment: {
        ...common(9998),
        GOTRUE_JWT_KEYS: KEYS,
        GOTRUE_MAILER_AUTOCONFIRM: "true",
        GOTRUE_SMS_AUTOCONFIRM: "true",
        GOTRUE_EXTERNAL_PHONE_ENABLED: "true",
        GOTRUE_EXTERNAL_ANONYMOUS_USERS_ENABLED: "true",
      },
    },
    disabled: {
      image: "supabase/auth:v2.176.0",
      environment: {
        ...common(9997),
        GOTRUE_DISABLE_SIGNUP: "true",
        GOTRUE_EXTERNAL_PHONE_ENABLED: "false",
        GOTRUE_EXTERNAL_EMAIL_ENABLED: "false",
      },
    },
    mail: { image: "phamhieu/inbucket:latest" },
    db: { image: "supabase/postgres:15.8.1.100", environment: { POSTGRES_PASSWORD: "postgres" } },
  },
};

const checkout = mkdtempSync(join(tmpdir(), "auth-js-checkout-"));
mkdirSync(join(checkout, "infra"));
writeFileSync(join(checkout, "infra/docker-compose.yml"), stringify(compose));
afterAll(() => rmSync(checkout, { recursive: true, force: true }));

const around = {
  databaseUrl: "postgres://postgres@127.0.0.1:5432/auth_js_suite_run",
  smtpPort: 2500,
  twilioUrl: "http://127.0.0.1:40001",
};

describe("the auth-js suite's servers, from its compose file", () => {
  it("are one authsvc per GoTrue service, on the service's port, on loopback and the run's database", () => {
    const servers = suiteServers(checkout, around);
    expect(servers.map((s) => [s.name, s.port])).toEqual([
      ["gotrue", 9999],
      ["autoconfirm", 9998],
      ["disabled", 9997],
    ]);
    for (const { env } of servers) {
      expect(env).toMatchObject({
        AUTHSVC_DB_DATABASE_URL: around.databaseUrl,
        AUTHSVC_API_HOST: "127.0.0.1",
        AUTHSVC_SMTP_HOST: "127.0.0.1",
        AUTHSVC_SMTP_PORT: "2500",
        AUTHSVC_JWT_SECRET: SECRET,
        AUTHSVC_DB_NAMESPACE: "auth",
      });
      expect(Object.keys(env).filter((name) => !name.startsWith("AUTHSVC_"))).toEqual([]);
    }
    expect(servers[1]?.env.AUTHSVC_JWT_KEYS).toBe(KEYS);
  });

  it("send texts to the loopback Twilio with credentials it refuses, unless the shell gives some", () => {
    const [gotrue] = suiteServers(checkout, around);
    expect(gotrue?.env).toMatchObject({
      AUTHSVC_SMS_TWILIO_BASE_URL: around.twilioUrl,
      AUTHSVC_SMS_TWILIO_ACCOUNT_SID: REFUSED_TWILIO.ACCOUNT_SID,
      AUTHSVC_SMS_TWILIO_AUTH_TOKEN: REFUSED_TWILIO.AUTH_TOKEN,
    });
    vi.stubEnv("GOTRUE_SMS_TWILIO_ACCOUNT_SID", "AC1234");
    try {
      expect(suiteServers(checkout, around)[0]?.env.AUTHSVC_SMS_TWILIO_ACCOUNT_SID).toBe("AC1234");
    } finally {
      vi.unstubAllEnvs();
    }
  });

  it("each load as authsvc configurations without a problem or a warning", () => {
    for (const { name, env } of suiteServers(checkout, around)) {
      const loaded = loadConfig(env);
      expect({
        name,
        ...(loaded.ok ? { warnings: loaded.warnings } : { problems: loaded.problems }),
      }).toEqual({
        name,
        warnings: [],
      });
    }
  });
});
