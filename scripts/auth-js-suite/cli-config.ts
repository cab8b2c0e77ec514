/**
 * The auth server of a Supabase-CLI layout checkout (supabase-js's `packages/core/auth-js`), read from
 * its `test/supabase/config.toml` and translated to authsvc's variables the way the CLI translates
 * that file to GoTrue's (`supabase start`): each key below becomes the GoTrue variable the CLI sets,
 * spelled with `AUTHSVC_`. The CLI's fixed values are set as it sets them; keys with no counterpart
 * are returned, so the run can list what it ignored.
 */
import { readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { parse } from "smol-toml";
import type { SuiteServer } from "./compose.js";

export const CLI_CONFIG = "test/supabase/config.toml";

/** What the CLI's outside services become. */
export interface CliSurroundings {
  readonly databaseUrl: string;
  readonly smtpPort: number;
}

export interface CliServer {
  readonly server: SuiteServer;
  /** Dotted keys of the file that no authsvc variable takes (other services' sections by name). */
  readonly ignored: string[];
}

type Value = string | number | boolean | Value[] | { [key: string]: Value };
type Table = Record<string, Value>;

/** `env(NAME)` values are read from the shell, as the CLI does; unset, they are empty. */
const text = (value: Value): string => {
  const raw = Array.isArray(value) ? value.map(text).join(",") : String(value);
  const name = /^env\((\w+)\)$/.exec(raw)?.[1];
  return name === undefined ? raw : (process.env[name] ?? "");
};

/** A Go duration (`1s`, `1h30m`) in whole seconds: authsvc's frequencies take seconds. */
export function goDurationSeconds(value: string): string {
  if (/^\d+$/.test(value)) return value;
  const units: Record<string, number> = { h: 3600, m: 60, s: 1, ms: 0.001 };
  let total = 0;
  const rest = value.replace(/(\d+(?:\.\d+)?)(ms|h|m|s)/g, (_, amount: string, unit: string) => {
    total += Number(amount) * (units[unit] ?? 0);
    return "";
  });
  if (rest !== "" || value === "") throw new Error(`config.toml: ${value} is not a duration`);
  return String(Math.ceil(total));
}

/** The CLI's `password_requirements` names as GoTrue's character sets (`:`-separated). */
function requiredCharacters(name: string): string {
  const lower = "abcdefghijklmnopqrstuvwxyz";
  const upper = lower.toUpperCase();
  const digits = "0123456789";
  const sets: Record<string, string[]> = {
    "": [],
    letters_digits: [lower + upper, digits],
    lower_upper_letters_digits: [lower, upper, digits],
    lower_upper_letters_digits_symbols: [lower, upper, digits, "!@#$%^&*()_+-=[]{};'\\:\"|<>?,./`~"],
  };
  const set = sets[name];
  if (set === undefined) throw new Error(`config.toml: unknown password_requirements ${name}`);
  return set.join(":");
}

/**
 * config.toml key → authsvc variable (without `AUTHSVC_`), as `supabase start` maps it to GoTrue.
 * A function maps the value; `!` negates a boolean (the CLI's `DISABLE_SIGNUP = !enable_signup`).
 */
const KEYS: Record<string, string | [string, (value: Value) => string]> = {
  "auth.site_url": "SITE_URL",
  "auth.additional_redirect_urls": "URI_ALLOW_LIST",
  "auth.jwt_expiry": "JWT_EXP",
  "auth.jwt_secret": "JWT_SECRET",
  "auth.jwt_issuer": "JWT_ISSUER",
  "auth.enable_signup": ["DISABLE_SIGNUP", (v) => String(!v)],
  "auth.enable_anonymous_sign_ins": "EXTERNAL_ANONYMOUS_USERS_ENABLED",
  "auth.enable_manual_linking": "SECURITY_MANUAL_LINKING_ENABLED",
  "auth.enable_refresh_token_rotation": "SECURITY_REFRESH_TOKEN_ROTATION_ENABLED",
  "auth.refresh_token_reuse_interval": "SECURITY_REFRESH_TOKEN_REUSE_INTERVAL",
  "auth.minimum_password_length": "PASSWORD_MIN_LENGTH",
  "auth.password_requirements": ["PASSWORD_REQUIRED_CHARACTERS", (v) => requiredCharacters(text(v))],
  "auth.rate_limit.token_refresh": "RATE_LIMIT_TOKEN_REFRESH",
  "auth.rate_limit.sign_in_sign_ups": "RATE_LIMIT_OTP",
  "auth.rate_limit.token_verifications": "RATE_LIMIT_VERIFY",
  "auth.rate_limit.sms_sent": "RATE_LIMIT_SMS_SENT",
  "auth.rate_limit.web3": "RATE_LIMIT_WEB3",
  "auth.email.enable_signup": "EXTERNAL_EMAIL_ENABLED",
  "auth.email.double_confirm_changes": "MAILER_SECURE_EMAIL_CHANGE_ENABLED",
  "auth.email.enable_confirmations": ["MAILER_AUTOCONFIRM", (v) => String(!v)],
  "auth.email.secure_password_change": "SECURITY_UPDATE_PASSWORD_REQUIRE_REAUTHENTICATION",
  "auth.email.max_frequency": ["SMTP_MAX_FREQUENCY", (v) => goDurationSeconds(text(v))],
  "auth.email.otp_length": "MAILER_OTP_LENGTH",
  "auth.email.otp_expiry": "MAILER_OTP_EXP",
  "auth.sms.enable_signup": "EXTERNAL_PHONE_ENABLED",
  "auth.sms.enable_confirmations": ["SMS_AUTOCONFIRM", (v) => String(!v)],
  "auth.sms.max_frequency": ["SMS_MAX_FREQUENCY", (v) => goDurationSeconds(text(v))],
  "auth.sms.test_otp": [
    "SMS_TEST_OTP",
    (v) =>
      Object.entries(v as Table)
        .map(([phone, code]) => `${phone}:${text(code)}`)
        .join(","),
  ],
  "auth.sessions.timebox": ["SESSIONS_TIMEBOX", (v) => goDurationSeconds(text(v))],
  "auth.sessions.inactivity_timeout": ["SESSIONS_INACTIVITY_TIMEOUT", (v) => goDurationSeconds(text(v))],
  "auth.mfa.max_enrolled_factors": "MFA_MAX_ENROLLED_FACTORS",
  "auth.mfa.totp.enroll_enabled": "MFA_TOTP_ENROLL_ENABLED",
  "auth.mfa.totp.verify_enabled": "MFA_TOTP_VERIFY_ENABLED",
  "auth.mfa.phone.enroll_enabled": "MFA_PHONE_ENROLL_ENABLED",
  "auth.mfa.phone.verify_enabled": "MFA_PHONE_VERIFY_ENABLED",
  "auth.mfa.phone.otp_length": "MFA_PHONE_OTP_LENGTH",
  "auth.mfa.phone.template": "MFA_PHONE_TEMPLATE",
  "auth.mfa.phone.max_frequency": ["MFA_PHONE_MAX_FREQUENCY", (v) => goDurationSeconds(text(v))],
  "auth.mfa.web_authn.enroll_enabled": "MFA_WEB_AUTHN_ENROLL_ENABLED",
  "auth.mfa.web_authn.verify_enabled": "MFA_WEB_AUTHN_VERIFY_ENABLED",
  "auth.passkey.enabled": "PASSKEY_ENABLED",
  "auth.webauthn.rp_display_name": "WEBAUTHN_RP_DISPLAY_NAME",
  "auth.webauthn.rp_id": "WEBAUTHN_RP_ID",
  "auth.webauthn.rp_origins": "WEBAUTHN_RP_ORIGINS",
  "auth.oauth_server.enabled": "OAUTH_SERVER_ENABLED",
  "auth.oauth_server.authorization_url_path": "OAUTH_SERVER_AUTHORIZATION_PATH",
  "auth.oauth_server.allow_dynamic_registration": "OAUTH_SERVER_ALLOW_DYNAMIC_REGISTRATION",
  "auth.web3.solana.enabled": "EXTERNAL_WEB3_SOLANA_ENABLED",
  "auth.web3.ethereum.enabled": "EXTERNAL_WEB3_ETHEREUM_ENABLED",
  "inbucket.admin_email": "SMTP_ADMIN_EMAIL",
  "inbucket.sender_name": "SMTP_SENDER_NAME",
};

/** `[auth.external.<provider>]` keys, as the CLI sets `GOTRUE_EXTERNAL_<PROVIDER>_*`. */
const EXTERNAL_KEYS: Record<string, string> = {
  enabled: "ENABLED",
  client_id: "CLIENT_ID",
  secret: "SECRET",
  redirect_uri: "REDIRECT_URI",
  url: "URL",
};

/** Top-level sections of other services: listed as ignored by name, not key by key. */
const OTHER_SERVICES = ["db", "realtime", "studio", "storage", "edge_runtime", "analytics", "experimental"];

function leaves(table: Table, prefix = ""): [string, Value][] {
  return Object.entries(table).flatMap(([key, value]): [string, Value][] => {
    const path = prefix ? `${prefix}.${key}` : key;
    const isTable = typeof value === "object" && !Array.isArray(value);
    // test_otp is one value (a map of numbers to codes), not a section.
    return isTable && path !== "auth.sms.test_otp" ? leaves(value, path) : [[path, value]];
  });
}

/** The signing keys file as `JWT_KEYS`, with the JWT secret beside them as a verify-only HS256 key. */
function jwtKeys(configDir: string, auth: Table): string {
  const keys = JSON.parse(readFileSync(resolve(configDir, text(auth.signing_keys_path ?? "")), "utf8"));
  // The CLI sets GOTRUE_JWT_VALID_METHODS=HS256,RS256,ES256: tokens without a kid signed with the
  // secret still pass. authsvc's way to say the same is the secret as a verify-only key.
  const secret = Buffer.from(text(auth.jwt_secret ?? "")).toString("base64url");
  return JSON.stringify([
    ...keys,
    { kty: "oct", kid: "jwt-secret", use: "sig", key_ops: ["verify"], alg: "HS256", k: secret },
  ]);
}

/** The one auth server of a CLI-layout checkout, on the file's API port under `/auth/v1`. */
export function cliServer(checkout: string, around: CliSurroundings): CliServer {
  const file = join(checkout, CLI_CONFIG);
  const config = parse(readFileSync(file, "utf8")) as Table;
  const api = (config.api ?? {}) as Table;
  const auth = (config.auth ?? {}) as Table;
  const port = Number(api.port ?? 54321);
  // Kong serves GoTrue under /auth/v1 of the API URL; authsvc serves that prefix itself.
  const external = `${text(api.external_url ?? `http://127.0.0.1:${port}`)}/auth/v1`;
  const env: Record<string, string> = {
    AUTHSVC_DB_DATABASE_URL: around.databaseUrl,
    AUTHSVC_API_HOST: "127.0.0.1",
    AUTHSVC_API_PORT: String(port),
    AUTHSVC_API_BASE_PATHS: "/auth/v1",
    AUTHSVC_API_EXTERNAL_URL: external,
    AUTHSVC_JWT_ISSUER: external,
    // The CLI's fixed values.
    AUTHSVC_JWT_ADMIN_ROLES: "service_role",
    AUTHSVC_JWT_AUD: "authenticated",
    AUTHSVC_JWT_DEFAULT_GROUP_NAME: "authenticated",
    AUTHSVC_SMS_OTP_EXP: "6000",
    AUTHSVC_SMS_OTP_LENGTH: "6",
    // Without [auth.email.smtp] the CLI sends mail to its inbucket, unlimited, with no credentials.
    AUTHSVC_SMTP_HOST: "127.0.0.1",
    AUTHSVC_SMTP_PORT: String(around.smtpPort),
    AUTHSVC_SMTP_ADMIN_EMAIL: "admin@email.com",
    AUTHSVC_SMTP_SENDER_NAME: "Admin",
    AUTHSVC_RATE_LIMIT_EMAIL_SENT: "360000",
    // The suite's tokens are signed with the CLI's published demo secret, refused without this.
    AUTHSVC_JWT_ALLOW_PUBLISHED_SECRET: "true",
  };
  const ignored: string[] = [];
  const used = new Set(["api.port", "api.external_url", "auth.signing_keys_path"]);
  if (auth.signing_keys_path !== undefined) env.AUTHSVC_JWT_KEYS = jwtKeys(dirname(file), auth);
  for (const [path, value] of leaves(config)) {
    const top = path.split(".")[0] ?? "";
    if (OTHER_SERVICES.includes(top)) continue;
    const provider = /^auth\.external\.(\w+)\.(\w+)$/.exec(path);
    const target = provider
      ? EXTERNAL_KEYS[provider[2] ?? ""] &&
        `EXTERNAL_${provider[1]?.toUpperCase()}_${EXTERNAL_KEYS[provider[2] ?? ""]}`
      : KEYS[path];
    if (target === undefined || target === "") {
      if (!used.has(path)) ignored.push(path);
      continue;
    }
    const [name, map] = typeof target === "string" ? [target, text] : target;
    env[`AUTHSVC_${name}`] = map(value);
  }
  // The CLI lets google and apple be enabled without a secret (ID-token sign-in only; the suite's is
  // an unset env()); authsvc requires one for an enabled provider, so the run gives a placeholder.
  for (const [provider, section] of Object.entries((auth.external ?? {}) as Record<string, Table>)) {
    const secret = `AUTHSVC_EXTERNAL_${provider.toUpperCase()}_SECRET`;
    if (section.enabled === true && !env[secret]) {
      env[secret] = "placeholder-secret-absent-from-config-toml";
      ignored.push(`auth.external.${provider}.secret (empty: a placeholder)`);
    }
  }
  // Empty is the CLI's "unset": `redirect_uri = ""` is its default, `password_requirements = ""` none.
  for (const [name, value] of Object.entries(env)) {
    if (value === "" && /(_URI|_URL|_REQUIRED_CHARACTERS)$/.test(name)) delete env[name];
  }
  ignored.push(...OTHER_SERVICES.filter((name) => name in config).map((name) => `[${name}]`));
  return { server: { name: "supabase-cli-auth", port, env, basePath: "/auth/v1" }, ignored };
}
