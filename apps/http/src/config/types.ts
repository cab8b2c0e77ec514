/**
 * The shape of the parsed configuration: the union of what each section (sections/) yields. Units
 * are in the fields' TSDoc (plain numbers of seconds unless the name ends in `Ms`).
 */
import type { ApiConfig } from "./sections/api.js";
import type { DbConfig } from "./sections/db.js";
import type { ExternalConfig } from "./sections/external.js";
import type { GeneralConfig } from "./sections/general.js";
import type { HooksConfig } from "./sections/hooks.js";
import type { JwtConfig } from "./sections/jwt.js";
import type { MailerConfig, SmtpConfig } from "./sections/mail.js";
import type { MfaConfig } from "./sections/mfa.js";
import type { RateLimitConfig } from "./sections/rate-limits.js";
import type { PasswordConfig, SecurityConfig } from "./sections/security.js";
import type { SessionsConfig } from "./sections/sessions.js";
import type { SmsConfig } from "./sections/sms.js";
import type { TelemetryConfig } from "./sections/telemetry.js";

export type { ApiConfig } from "./sections/api.js";
export type { DbConfig } from "./sections/db.js";
export {
  EXTERNAL_PROVIDERS,
  type ExternalConfig,
  type ExternalProviderId,
  type OAuthProviderConfig,
} from "./sections/external.js";
export type { GeneralConfig } from "./sections/general.js";
export type { HooksConfig } from "./sections/hooks.js";
export type { JwtConfig } from "./sections/jwt.js";
export {
  DEFAULT_SUBJECTS,
  MAIL_KINDS,
  type MailerConfig,
  type SmtpConfig,
  URL_PATH_KINDS,
  type UrlPathKind,
} from "./sections/mail.js";
export type { MfaConfig } from "./sections/mfa.js";
export type { RateLimitConfig } from "./sections/rate-limits.js";
export {
  CAPTCHA_PROVIDERS,
  type CaptchaConfig,
  type CaptchaProvider,
  type PasswordConfig,
  type SecurityConfig,
} from "./sections/security.js";
export type { SessionsConfig } from "./sections/sessions.js";
export {
  type MessagebirdSettings,
  SMS_PROVIDERS,
  type SmsConfig,
  type SmsGatewayChoice,
  type SmsProvider,
  type TextlocalSettings,
  type TwilioSettings,
  type VonageSettings,
} from "./sections/sms.js";
export {
  LOG_LEVELS,
  type LogConfig,
  type LogLevel,
  METRICS_EXPORTERS,
  type MetricsConfig,
  type MetricsExporter,
  type OtelConfig,
  type TelemetryConfig,
  type TracingConfig,
} from "./sections/telemetry.js";

export type Config = GeneralConfig &
  TelemetryConfig & {
    readonly api: ApiConfig;
    readonly db: DbConfig;
    readonly jwt: JwtConfig;
    readonly password: PasswordConfig;
    readonly security: SecurityConfig;
    readonly sessions: SessionsConfig;
    readonly rateLimit: RateLimitConfig;
    readonly external: ExternalConfig;
    readonly smtp: SmtpConfig;
    readonly mailer: MailerConfig;
    readonly sms: SmsConfig;
    readonly hooks: HooksConfig;
    readonly mfa: MfaConfig;
    readonly oauthServer: import("./sections/oauth-server.js").OAuthServerConfig;
  };
