/**
 * Every scalar variable, grouped as the docs present them. Families (mail kinds, OAuth providers,
 * SMS gateways) are generated in families.ts.
 */
import * as k from "./kinds.js";
import { CAPTCHA_PROVIDERS, LOG_LEVELS, METRICS_EXPORTERS, SMS_PROVIDERS } from "./types.js";
import { defineVariables } from "./variable.js";

let variable = defineVariables("General");
export const general = {
  siteUrl: variable({
    key: "SITE_URL",
    kind: k.url,
    required: "unless embedded",
    computedDefault: "`http://localhost:3000` in embedded mode",
    description:
      "Base URL of the site, used in email links and as the default `redirect_to`. Any URL on its host is a permitted redirect.",
  }),
  uriAllowList: variable({
    key: "URI_ALLOW_LIST",
    kind: k.list,
    default: "",
    description:
      "Further permitted `redirect_to` URLs. Globs allowed in host and path (`https://*.example.com/*`).",
  }),
  disableSignup: variable({
    key: "DISABLE_SIGNUP",
    kind: k.boolean,
    default: "false",
    description: "When true, users can only be created by invite or by an admin.",
  }),
  dataDir: variable({
    key: "DATA_DIR",
    kind: k.text,
    default: "./.authsvc",
    description: "Folder of the embedded database and of the generated development JWT secret.",
  }),
  operatorToken: variable({
    key: "OPERATOR_TOKEN",
    kind: k.secret(),
    description:
      "Shared secret of multi-instance mode, an inherited feature that is not supported. Read and ignored.",
  }),
};

variable = defineVariables("API");
export const api = {
  host: variable({ key: "API_HOST", kind: k.host, default: "0.0.0.0", description: "Address to listen on." }),
  port: variable({
    key: "API_PORT",
    aliases: ["AUTHSVC_PORT", "PORT"],
    kind: k.port(),
    default: "8081",
    description: "Port to listen on; 0 picks a free port.",
  }),
  externalUrl: variable({
    key: "API_EXTERNAL_URL",
    aliases: ["API_EXTERNAL_URL"],
    kind: k.url,
    required: "unless embedded",
    computedDefault: "`http://localhost:<port>` in embedded mode",
    description: "URL at which clients reach this service. Email links start with it.",
  }),
  endpoint: variable({
    key: "API_ENDPOINT",
    kind: k.text,
    description: "Multi-instance mode only (not supported). Read and ignored.",
  }),
  requestIdHeader: variable({
    key: "REQUEST_ID_HEADER",
    aliases: ["AUTHSVC_API_REQUEST_ID_HEADER"],
    kind: k.headerName,
    description: "Incoming header whose value becomes the request ID, instead of a fresh one.",
  }),
  maxRequestDuration: variable({
    key: "API_MAX_REQUEST_DURATION",
    kind: k.duration(1),
    default: "10s",
    description: "Requests running longer are answered with 504 `request_timeout`.",
  }),
  corsAllowedHeaders: variable({
    key: "CORS_ALLOWED_HEADERS",
    kind: k.headerList,
    default: "",
    description: "Request headers allowed by CORS in addition to the built-in ones.",
  }),
};

variable = defineVariables("Database");
export const db = {
  driver: variable({
    key: "DB_DRIVER",
    kind: k.oneOf(["postgres"]),
    default: "postgres",
    description: "Database dialect. Only `postgres`.",
  }),
  url: variable({
    key: "DB_DATABASE_URL",
    aliases: ["AUTHSVC_DATABASE_URL", "DATABASE_URL"],
    kind: k.postgresUrl,
    computedDefault: "unset: embedded mode",
    description:
      "Postgres connection URL. When no database URL is set the server runs in embedded mode: an embedded Postgres in `AUTHSVC_DATA_DIR`, with development defaults.",
  }),
  maxPoolSize: variable({
    key: "DB_MAX_POOL_SIZE",
    kind: k.wholeNumber(),
    default: "20",
    description:
      "Maximum open database connections; 0 means unlimited (capped at 100). The default lets four instances share a default PostgreSQL (max_connections 100).",
  }),
  connMaxIdleTime: variable({
    key: "DB_CONN_MAX_IDLE_TIME",
    kind: k.duration(),
    default: "60s",
    description:
      "An idle database connection is closed after this long, so a quiet instance holds none; 0 keeps them open.",
  }),
  connMaxLifetime: variable({
    key: "DB_CONN_MAX_LIFETIME",
    kind: k.duration(),
    default: "30m",
    description: "A database connection is closed (and reopened when needed) at this age; 0 never.",
  }),
  preparedStatements: variable({
    key: "DB_PREPARED_STATEMENTS",
    kind: k.boolean,
    default: "true",
    description:
      "Use named prepared statements. Set false behind a pooler in transaction mode (PgBouncer) or when DATABASE_URL points at another process's embedded database.",
  }),
  namespace: variable({
    key: "DB_NAMESPACE",
    kind: k.sqlIdentifier,
    default: "auth",
    description: "Schema holding every table, so tables read `auth.users` as in Supabase.",
  }),
};

variable = defineVariables("Logging and telemetry");
export const telemetry = {
  logLevel: variable({
    key: "LOG_LEVEL",
    aliases: ["LOG_LEVEL"],
    kind: k.oneOf(LOG_LEVELS),
    default: "info",
    description: "Least severe level that is logged.",
  }),
  logFile: variable({ key: "LOG_FILE", kind: k.text, description: "Also write logs to this file." }),
  tracingEnabled: variable({
    key: "TRACING_ENABLED",
    kind: k.boolean,
    default: "false",
    description: "Export traces.",
  }),
  tracingExporter: variable({
    key: "TRACING_EXPORTER",
    kind: k.oneOf(["opentelemetry"]),
    default: "opentelemetry",
    description: "Trace exporter.",
  }),
  metricsEnabled: variable({
    key: "METRICS_ENABLED",
    kind: k.boolean,
    default: "false",
    description: "Export metrics.",
  }),
  metricsExporter: variable({
    key: "METRICS_EXPORTER",
    kind: k.oneOf(METRICS_EXPORTERS),
    default: "opentelemetry",
    description: "`opentelemetry` pushes to a collector; `prometheus` serves `/` on a separate server.",
  }),
  prometheusHost: variable({
    key: "OTEL_EXPORTER_PROMETHEUS_HOST",
    kind: k.host,
    default: "0.0.0.0",
    description: "Address of the Prometheus metrics server.",
  }),
  prometheusPort: variable({
    key: "OTEL_EXPORTER_PROMETHEUS_PORT",
    kind: k.port(),
    default: "9100",
    description: "Port of the Prometheus metrics server.",
  }),
  resourceAttributes: variable({
    key: "OTEL_RESOURCE_ATTRIBUTES",
    kind: k.text,
    description: "Extra OpenTelemetry resource attributes (`key=value,…`); `auth.version` is always added.",
  }),
};

variable = defineVariables("JWT");
export const jwt = {
  secret: variable({
    key: "JWT_SECRET",
    kind: k.secret(16),
    required: "unless embedded",
    computedDefault: "a generated development secret in embedded mode",
    description: "Secret that signs access tokens (HS256). Shorter than 16 characters is refused.",
  }),
  exp: variable({
    key: "JWT_EXP",
    kind: k.seconds({ min: 1 }),
    default: "3600",
    description: "Access token lifetime.",
  }),
  aud: variable({ key: "JWT_AUD", kind: k.text, default: "authenticated", description: "Default audience." }),
  issuer: variable({
    key: "JWT_ISSUER",
    kind: k.text,
    description: "`iss` claim; left out of tokens when unset.",
  }),
  adminGroupName: variable({
    key: "JWT_ADMIN_GROUP_NAME",
    kind: k.text,
    default: "admin",
    description: "Admin group name (inherited feature).",
  }),
  defaultGroupName: variable({
    key: "JWT_DEFAULT_GROUP_NAME",
    kind: k.text,
    default: "authenticated",
    description: "Role of new users.",
  }),
  adminRoles: variable({
    key: "JWT_ADMIN_ROLES",
    kind: k.list,
    default: "service_role,supabase_admin",
    description: "`role` claim values that may call the admin endpoints.",
  }),
};

variable = defineVariables("Passwords and security");
export const security = {
  passwordMinLength: variable({
    key: "PASSWORD_MIN_LENGTH",
    kind: k.wholeNumber(),
    default: "6",
    description: "Minimum password length. Values below 6 are raised to 6, as the reference server does.",
  }),
  passwordRequiredCharacters: variable({
    key: "PASSWORD_REQUIRED_CHARACTERS",
    kind: k.characterSets,
    default: "",
    description:
      "Character sets separated by `:`; a password needs one character of each. `\\:` is a literal colon: `abc:ABC:0123456789:\\:!`.",
  }),
  refreshTokenRotationEnabled: variable({
    key: "SECURITY_REFRESH_TOKEN_ROTATION_ENABLED",
    kind: k.boolean,
    default: "true",
    description: "Detect reuse of revoked refresh tokens and revoke the token family.",
  }),
  refreshTokenReuseInterval: variable({
    key: "SECURITY_REFRESH_TOKEN_REUSE_INTERVAL",
    kind: k.duration(),
    default: "10",
    description: "How long a just-rotated refresh token may still be used (concurrent refreshes).",
  }),
  updatePasswordRequireReauthentication: variable({
    key: "SECURITY_UPDATE_PASSWORD_REQUIRE_REAUTHENTICATION",
    kind: k.boolean,
    default: "false",
    description: "A password change needs a nonce from `GET /reauthenticate`.",
  }),
  captchaEnabled: variable({
    key: "SECURITY_CAPTCHA_ENABLED",
    kind: k.boolean,
    default: "false",
    description: "Check `captcha_token` on sign-up, sign-in and OTP requests.",
  }),
  captchaProvider: variable({
    key: "SECURITY_CAPTCHA_PROVIDER",
    kind: k.oneOf(CAPTCHA_PROVIDERS),
    default: "hcaptcha",
    description: "Captcha provider.",
  }),
  captchaSecret: variable({
    key: "SECURITY_CAPTCHA_SECRET",
    kind: k.secret(),
    required: "when AUTHSVC_SECURITY_CAPTCHA_ENABLED is true",
    description: "Captcha provider secret.",
  }),
  captchaTimeout: variable({
    key: "SECURITY_CAPTCHA_TIMEOUT",
    kind: k.duration(1),
    default: "10s",
    description: "Timeout of the verification request to the captcha provider.",
  }),
};

variable = defineVariables("Rate limits");
export const rateLimit = {
  header: variable({
    key: "RATE_LIMIT_HEADER",
    kind: k.headerName,
    description:
      "Header holding the client IP for the per-IP request limits below (e.g. `X-Forwarded-For`; its first entry counts). Unset, or absent from a request: no per-IP limit applies.",
  }),
  tokenPer5Min: variable({
    key: "RATE_LIMIT_TOKEN_REFRESH",
    kind: k.wholeNumber({ min: 1 }),
    default: "150",
    description: "`/token` requests per 5 minutes per client IP, burst 30; counted by each instance alone.",
  }),
  verifyPer5Min: variable({
    key: "RATE_LIMIT_VERIFY",
    kind: k.wholeNumber({ min: 1 }),
    default: "30",
    description: "`/verify` requests per 5 minutes per client IP, burst 30; counted by each instance alone.",
  }),
  otpPer5Min: variable({
    key: "RATE_LIMIT_OTP",
    kind: k.wholeNumber({ min: 1 }),
    default: "30",
    description:
      "Requests per 5 minutes per client IP to each of `/otp`, `/magiclink`, `/recover`, `/resend`, `/signup` and `PUT /user`, burst 30; counted by each instance alone.",
  }),
  emailSent: variable({
    key: "RATE_LIMIT_EMAIL_SENT",
    kind: k.wholeNumber(),
    default: "30",
    description:
      "Emails per hour, all instances together; 0 blocks sending. Not applied with mailer autoconfirm.",
  }),
  smsSent: variable({
    key: "RATE_LIMIT_SMS_SENT",
    kind: k.wholeNumber(),
    default: "30",
    description: "SMS per hour, all instances together; 0 blocks sending. Not applied with SMS autoconfirm.",
  }),
};

variable = defineVariables("Sign-in methods");
export const signIn = {
  emailEnabled: variable({
    key: "EXTERNAL_EMAIL_ENABLED",
    kind: k.boolean,
    default: "true",
    description: "Email sign-ups and sign-ins. External providers work either way.",
  }),
  phoneEnabled: variable({
    key: "EXTERNAL_PHONE_ENABLED",
    kind: k.boolean,
    default: "false",
    description: "Phone sign-ups and sign-ins (needs an SMS gateway).",
  }),
  anonymousUsersEnabled: variable({
    key: "EXTERNAL_ANONYMOUS_USERS_ENABLED",
    kind: k.boolean,
    default: "false",
    description: "Anonymous sign-ins.",
  }),
};

variable = defineVariables("Email");
export const mail = {
  smtpHost: variable({
    key: "SMTP_HOST",
    kind: k.host,
    description: "Mail server. Unset: no mail server is configured.",
  }),
  smtpPort: variable({ key: "SMTP_PORT", kind: k.port(1), default: "587", description: "Mail server port." }),
  smtpUser: variable({ key: "SMTP_USER", kind: k.text, description: "Mail server user, when it needs one." }),
  smtpPass: variable({ key: "SMTP_PASS", kind: k.secret(), description: "Mail server password." }),
  smtpAdminEmail: variable({
    key: "SMTP_ADMIN_EMAIL",
    kind: k.email,
    required: "when AUTHSVC_SMTP_HOST is set",
    description: "From address of every email.",
  }),
  smtpSenderName: variable({
    key: "SMTP_SENDER_NAME",
    kind: k.text,
    computedDefault: "the value of `AUTHSVC_SMTP_ADMIN_EMAIL`",
    description: "Sender display name.",
  }),
  smtpMaxFrequency: variable({
    key: "SMTP_MAX_FREQUENCY",
    kind: k.seconds(),
    default: "900",
    description: "Minimum time between two signup confirmation or password reset emails to one user.",
  }),
  autoconfirm: variable({
    key: "MAILER_AUTOCONFIRM",
    kind: k.boolean,
    default: "false",
    description: "Email addresses count as confirmed at sign-up; no confirmation email.",
  }),
  secureEmailChangeEnabled: variable({
    key: "MAILER_SECURE_EMAIL_CHANGE_ENABLED",
    kind: k.boolean,
    default: "true",
    description: "An email change must be confirmed from both the old and the new address.",
  }),
  otpExp: variable({
    key: "MAILER_OTP_EXP",
    kind: k.seconds({ min: 1 }),
    default: "3600",
    description: "Validity of an email link or code.",
  }),
  otpLength: variable({
    key: "MAILER_OTP_LENGTH",
    kind: k.wholeNumber({ min: 6, max: 10 }),
    default: "6",
    description: "Digits in an email code.",
  }),
};

variable = defineVariables("SMS");
export const sms = {
  autoconfirm: variable({
    key: "SMS_AUTOCONFIRM",
    kind: k.boolean,
    default: "false",
    description: "Phone numbers count as confirmed at sign-up; no SMS.",
  }),
  maxFrequency: variable({
    key: "SMS_MAX_FREQUENCY",
    kind: k.seconds(),
    default: "60",
    description: "Minimum time between two SMS codes to one user.",
  }),
  otpExp: variable({
    key: "SMS_OTP_EXP",
    kind: k.seconds({ min: 1 }),
    default: "60",
    description: "Validity of an SMS code.",
  }),
  otpLength: variable({
    key: "SMS_OTP_LENGTH",
    kind: k.wholeNumber({ min: 6, max: 10 }),
    default: "6",
    description: "Digits in an SMS code.",
  }),
  provider: variable({
    key: "SMS_PROVIDER",
    kind: k.oneOf(SMS_PROVIDERS),
    description: "SMS gateway. Its credentials below become required. Unset: no SMS can be sent.",
  }),
};
