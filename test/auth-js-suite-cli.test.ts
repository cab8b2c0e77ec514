import { generateKeyPairSync, randomUUID } from "node:crypto";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loadConfig } from "@authsvc/http";
import { afterAll, describe, expect, it, vi } from "vitest";
import { cliServer, goDurationSeconds } from "../scripts/auth-js-suite/cli-config.js";
import { layoutOf } from "../scripts/auth-js-suite/layouts.js";

/**
 * `npm run suite:auth-js` configures the server of a supabase-js auth-js checkout from its
 * `test/supabase/config.toml`. The file's shape is kept here (the sections the suite's tests depend
 * on, key material made afresh), so that a change of authsvc's variables that would stop that server
 * from starting, or leave a key of the file unread, fails in `npm test` rather than in the next run.
 */
const SECRET = "super-secret-jwt-token-with-at-least-32-characters-long";
const CONFIG = `
project_id = "auth-js-test"
[api]
enabled = true
port = 54321
[db]
port = 54322
[inbucket]
enabled = true
port = 54324
[auth]
enabled = true
site_url = "http://127.0.0.1:3000"
additional_redirect_urls = ["https://127.0.0.1:3000", "http://localhost:5173"]
jwt_expiry = 3600
jwt_secret = "${SECRET}"
signing_keys_path = "./signing_keys.json"
enable_refresh_token_rotation = true
refresh_token_reuse_interval = 10
enable_signup = true
enable_anonymous_sign_ins = true
enable_manual_linking = false
minimum_password_length = 6
password_requirements = ""
[auth.rate_limit]
email_sent = 100
anonymous_users = 100
token_refresh = 300
sign_in_sign_ups = 100
[auth.email]
enable_signup = true
double_confirm_changes = true
enable_confirmations = false
max_frequency = "1s"
otp_length = 6
otp_expiry = 3600
[auth.sms]
enable_signup = true
enable_confirmations = false
template = "Your code is {{ .Code }}"
max_frequency = "1s"
[auth.sms.test_otp]
"1234567890" = "123456"
[auth.mfa.web_authn]
enroll_enabled = true
verify_enabled = true
[auth.passkey]
enabled = true
[auth.webauthn]
rp_display_name = "auth-js tests"
rp_id = "localhost"
rp_origins = ["http://localhost:5173"]
[auth.external.google]
enabled = true
client_id = "53566906701-example.apps.googleusercontent.com"
secret = "env(AUTH_JS_SUITE_TEST_UNSET_SECRET)"
redirect_uri = ""
skip_nonce_check = true
[auth.oauth_server]
enabled = true
authorization_url_path = "/oauth/consent"
allow_dynamic_registration = true
`;

const rsa = generateKeyPairSync("rsa", { modulusLength: 2048 }).privateKey.export({ format: "jwk" });
const signingKey = { ...rsa, kid: randomUUID(), key_ops: ["sign", "verify"], alg: "RS256" };
const checkout = mkdtempSync(join(tmpdir(), "auth-js-cli-checkout-"));
mkdirSync(join(checkout, "test/supabase"), { recursive: true });
writeFileSync(join(checkout, "test/supabase/config.toml"), CONFIG);
writeFileSync(join(checkout, "test/supabase/signing_keys.json"), JSON.stringify([signingKey]));
afterAll(() => rmSync(checkout, { recursive: true, force: true }));

const around = { databaseUrl: "postgres://postgres@127.0.0.1:5432/auth_js_suite_run", smtpPort: 2500 };

describe("the auth-js suite's server, from a Supabase CLI config.toml", () => {
  it("is one authsvc on the API port, under /auth/v1, on loopback, the run's database and mail sink", () => {
    expect(layoutOf(checkout).name).toBe("cli");
    const { server } = cliServer(checkout, around);
    expect([server.port, server.basePath]).toEqual([54321, "/auth/v1"]);
    expect(server.env).toMatchObject({
      AUTHSVC_DB_DATABASE_URL: around.databaseUrl,
      AUTHSVC_API_HOST: "127.0.0.1",
      AUTHSVC_API_PORT: "54321",
      AUTHSVC_API_BASE_PATHS: "/auth/v1",
      AUTHSVC_API_EXTERNAL_URL: "http://127.0.0.1:54321/auth/v1",
      AUTHSVC_JWT_ISSUER: "http://127.0.0.1:54321/auth/v1",
      AUTHSVC_SMTP_HOST: "127.0.0.1",
      AUTHSVC_SMTP_PORT: "2500",
    });
    expect(Object.keys(server.env).filter((name) => !name.startsWith("AUTHSVC_"))).toEqual([]);
  });

  it("maps the keys the tests depend on as the CLI maps them to GoTrue", () => {
    const { env } = cliServer(checkout, around).server;
    expect(env).toMatchObject({
      AUTHSVC_SITE_URL: "http://127.0.0.1:3000",
      AUTHSVC_URI_ALLOW_LIST: "https://127.0.0.1:3000,http://localhost:5173",
      AUTHSVC_JWT_SECRET: SECRET,
      AUTHSVC_JWT_ADMIN_ROLES: "service_role",
      AUTHSVC_DISABLE_SIGNUP: "false",
      AUTHSVC_MAILER_AUTOCONFIRM: "true",
      AUTHSVC_SMS_AUTOCONFIRM: "true",
      AUTHSVC_EXTERNAL_ANONYMOUS_USERS_ENABLED: "true",
      AUTHSVC_SMTP_MAX_FREQUENCY: "1",
      AUTHSVC_SMS_MAX_FREQUENCY: "1",
      AUTHSVC_SMS_TEST_OTP: "1234567890:123456",
      AUTHSVC_RATE_LIMIT_OTP: "100",
      AUTHSVC_MFA_WEB_AUTHN_ENROLL_ENABLED: "true",
      AUTHSVC_MFA_WEB_AUTHN_VERIFY_ENABLED: "true",
      AUTHSVC_PASSKEY_ENABLED: "true",
      AUTHSVC_WEBAUTHN_RP_ID: "localhost",
      AUTHSVC_WEBAUTHN_RP_ORIGINS: "http://localhost:5173",
      AUTHSVC_WEBAUTHN_RP_DISPLAY_NAME: "auth-js tests",
      AUTHSVC_OAUTH_SERVER_ENABLED: "true",
      AUTHSVC_OAUTH_SERVER_AUTHORIZATION_PATH: "/oauth/consent",
      AUTHSVC_OAUTH_SERVER_ALLOW_DYNAMIC_REGISTRATION: "true",
      AUTHSVC_EXTERNAL_GOOGLE_ENABLED: "true",
    });
    // The CLI's empty redirect_uri and password_requirements mean "the default".
    expect(env).not.toHaveProperty("AUTHSVC_EXTERNAL_GOOGLE_REDIRECT_URI");
    expect(env).not.toHaveProperty("AUTHSVC_PASSWORD_REQUIRED_CHARACTERS");
  });

  it("signs with the file's signing key and still accepts tokens signed with the JWT secret", () => {
    const keys = JSON.parse(cliServer(checkout, around).server.env.AUTHSVC_JWT_KEYS ?? "[]");
    expect(keys).toEqual([
      signingKey,
      {
        kty: "oct",
        kid: "jwt-secret",
        use: "sig",
        key_ops: ["verify"],
        alg: "HS256",
        k: Buffer.from(SECRET).toString("base64url"),
      },
    ]);
  });

  it("lists the keys it leaves unmapped, and gives an enabled provider with no secret a placeholder", () => {
    const { server, ignored } = cliServer(checkout, around);
    expect(ignored).toEqual(
      expect.arrayContaining([
        "auth.rate_limit.anonymous_users",
        "auth.rate_limit.email_sent",
        "auth.sms.template",
        "auth.external.google.skip_nonce_check",
        "auth.external.google.secret (empty: a placeholder)",
        "[db]",
      ]),
    );
    expect(server.env.AUTHSVC_EXTERNAL_GOOGLE_SECRET).toBeTruthy();
    vi.stubEnv("AUTH_JS_SUITE_TEST_UNSET_SECRET", "from-the-shell");
    try {
      expect(cliServer(checkout, around).server.env.AUTHSVC_EXTERNAL_GOOGLE_SECRET).toBe("from-the-shell");
    } finally {
      vi.unstubAllEnvs();
    }
  });

  it("loads as an authsvc configuration without a problem or a warning", () => {
    const loaded = loadConfig(cliServer(checkout, around).server.env);
    expect(loaded.ok ? { warnings: loaded.warnings } : { problems: loaded.problems }).toEqual({
      warnings: [],
    });
  });

  it("reads the CLI's Go durations as whole seconds", () => {
    expect(["1s", "60", "1m30s", "24h", "500ms"].map(goDurationSeconds)).toEqual([
      "1",
      "60",
      "90",
      "86400",
      "1",
    ]);
    expect(() => goDurationSeconds("soon")).toThrow("not a duration");
  });
});
