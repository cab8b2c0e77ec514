/**
 * The shape of the parsed configuration. Values are typed and grouped; units are in the field's
 * TSDoc (plain numbers of seconds unless the name ends in `Ms`).
 */

export const LOG_LEVELS = ["panic", "fatal", "error", "warn", "info", "debug"] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

export const METRICS_EXPORTERS = ["opentelemetry", "prometheus"] as const;
export type MetricsExporter = (typeof METRICS_EXPORTERS)[number];

export const CAPTCHA_PROVIDERS = ["hcaptcha", "turnstile"] as const;
export type CaptchaProvider = (typeof CAPTCHA_PROVIDERS)[number];

export const SMS_PROVIDERS = ["twilio", "messagebird", "textlocal", "vonage"] as const;
export type SmsProvider = (typeof SMS_PROVIDERS)[number];

/** The 17 external OAuth providers, by the identifier used in `/authorize?provider=`. */
export const EXTERNAL_PROVIDERS = [
  "apple",
  "azure",
  "bitbucket",
  "discord",
  "facebook",
  "figma",
  "github",
  "gitlab",
  "google",
  "keycloak",
  "linkedin_oidc",
  "notion",
  "slack_oidc",
  "spotify",
  "twitch",
  "workos",
  "zoom",
] as const;
export type ExternalProviderId = (typeof EXTERNAL_PROVIDERS)[number];

/** Emails the mailer sends; each has a subject and may have a template. */
export const MAIL_KINDS = [
  "invite",
  "confirmation",
  "recovery",
  "magicLink",
  "emailChange",
  "reauthentication",
] as const;
export type MailKind = (typeof MAIL_KINDS)[number];

/** Emails that carry a link, and so a URL path. */
export const URL_PATH_KINDS = ["invite", "confirmation", "recovery", "magicLink", "emailChange"] as const;
export type UrlPathKind = (typeof URL_PATH_KINDS)[number];

export interface ApiConfig {
  readonly host: string;
  readonly port: number;
  /** URL at which clients reach the service; email links start with it. */
  readonly externalUrl: string;
  /** Multi-instance mode only (unsupported). */
  readonly endpoint: string | undefined;
  readonly requestIdHeader: string | undefined;
  readonly maxRequestDurationMs: number;
  /** Extra request headers allowed by CORS, on top of the built-in ones. */
  readonly corsAllowedHeaders: readonly string[];
}

export interface DbConfig {
  readonly driver: "postgres";
  /** Undefined in embedded mode. */
  readonly url: string | undefined;
  /** 0 means unlimited. */
  readonly maxPoolSize: number;
  /** False: unnamed statements only (poolers in transaction mode, a shared embedded database). */
  readonly preparedStatements: boolean;
  /** The schema holding every table (`auth.users`, …). */
  readonly namespace: string;
  /** An idle connection is closed after this long (ms); 0 never. */
  readonly connMaxIdleTimeMs: number;
  /** A connection is closed at this age (ms); 0 never. */
  readonly connMaxLifetimeMs: number;
}

export interface LogConfig {
  readonly level: LogLevel;
  readonly file: string | undefined;
}

export interface TracingConfig {
  readonly enabled: boolean;
  readonly exporter: "opentelemetry";
}

export interface MetricsConfig {
  readonly enabled: boolean;
  readonly exporter: MetricsExporter;
  readonly prometheus: { readonly host: string; readonly port: number };
}

export interface OtelConfig {
  readonly resourceAttributes: string | undefined;
}

export interface JwtConfig {
  readonly secret: string;
  /** Access token lifetime, seconds. */
  readonly exp: number;
  readonly aud: string;
  /** `iss` claim; omitted from tokens when undefined. */
  readonly issuer: string | undefined;
  readonly adminGroupName: string;
  readonly defaultGroupName: string;
  /** `role` claim values that count as admin. */
  readonly adminRoles: readonly string[];
}

export interface PasswordConfig {
  readonly minLength: number;
  /** A password needs at least one character from each set. */
  readonly requiredCharacters: readonly string[];
}

interface CaptchaCommon {
  readonly provider: CaptchaProvider;
  readonly timeoutMs: number;
}
export type CaptchaConfig =
  | (CaptchaCommon & { readonly enabled: true; readonly secret: string })
  | (CaptchaCommon & { readonly enabled: false; readonly secret: string | undefined });

export interface SecurityConfig {
  readonly refreshTokenRotationEnabled: boolean;
  readonly refreshTokenReuseIntervalMs: number;
  readonly updatePasswordRequireReauthentication: boolean;
  readonly captcha: CaptchaConfig;
}

export interface RateLimitConfig {
  /** Header whose value keys per-IP limits; none when undefined. */
  readonly header: string | undefined;
  /** Emails per hour, across all instances. */
  readonly emailSent: number;
  /** SMS per hour, across all instances. */
  readonly smsSent: number;
  /** Per-IP `/token` requests per 5 minutes, in this instance. */
  readonly tokenPer5Min: number;
  /** Per-IP `/verify` requests per 5 minutes, in this instance. */
  readonly verifyPer5Min: number;
  /** Per-IP requests per 5 minutes to each OTP-sending route and `PUT /user`, in this instance. */
  readonly otpPer5Min: number;
}

export type OAuthProviderConfig =
  | {
      readonly enabled: true;
      readonly clientId: string;
      readonly secret: string;
      readonly redirectUri: string;
      /** Base URL of the provider; undefined means its public host. */
      readonly url: string | undefined;
    }
  | {
      readonly enabled: false;
      readonly clientId: string | undefined;
      readonly secret: string | undefined;
      readonly redirectUri: string | undefined;
      readonly url: string | undefined;
    };

export type ExternalConfig = {
  readonly email: { readonly enabled: boolean };
  readonly phone: { readonly enabled: boolean };
  readonly anonymousUsers: { readonly enabled: boolean };
} & { readonly [P in ExternalProviderId]: OAuthProviderConfig };

interface SmtpCommon {
  readonly port: number;
  readonly user: string | undefined;
  readonly pass: string | undefined;
  /** Minimum seconds between confirmation or recovery emails to one user. */
  readonly maxFrequency: number;
}
/** Without a host, no mail server is configured (the caller decides what to do with mail). */
export type SmtpConfig =
  | (SmtpCommon & { readonly host: string; readonly adminEmail: string; readonly senderName: string })
  | (SmtpCommon & {
      readonly host: undefined;
      readonly adminEmail: string | undefined;
      readonly senderName: string | undefined;
    });

export interface MailerConfig {
  readonly autoconfirm: boolean;
  readonly secureEmailChangeEnabled: boolean;
  /** Validity of an email link or OTP, seconds. */
  readonly otpExp: number;
  readonly otpLength: number;
  readonly subjects: Readonly<Record<MailKind, string>>;
  /** A path (joined to `api.externalUrl`) or an absolute URL. */
  readonly urlPaths: Readonly<Record<UrlPathKind, string>>;
  /** URLs of HTML templates; built-in templates where undefined. */
  readonly templates: Readonly<Partial<Record<MailKind, string>>>;
}

export interface TwilioSettings {
  readonly accountSid: string;
  readonly authToken: string;
  /** A message-service SID or a sender phone number. */
  readonly messageServiceSid: string;
  readonly baseUrl: string | undefined;
}
export interface MessagebirdSettings {
  readonly accessKey: string;
  /** A phone number with `+`, or a company name. */
  readonly originator: string;
  readonly baseUrl: string | undefined;
}
export interface TextlocalSettings {
  readonly apiKey: string;
  readonly sender: string;
  readonly baseUrl: string | undefined;
}
export interface VonageSettings {
  readonly apiKey: string;
  readonly apiSecret: string;
  readonly from: string;
  readonly baseUrl: string | undefined;
}

interface SmsCommon {
  readonly autoconfirm: boolean;
  /** Minimum seconds between SMS OTPs to one user. */
  readonly maxFrequency: number;
  /** Validity of an SMS OTP, seconds. */
  readonly otpExp: number;
  readonly otpLength: number;
}
/** Only the selected gateway's settings are present, and then complete. */
export type SmsGatewayChoice =
  | { readonly provider: undefined }
  | { readonly provider: "twilio"; readonly twilio: TwilioSettings }
  | { readonly provider: "messagebird"; readonly messagebird: MessagebirdSettings }
  | { readonly provider: "textlocal"; readonly textlocal: TextlocalSettings }
  | { readonly provider: "vonage"; readonly vonage: VonageSettings };
export type SmsConfig = SmsCommon & SmsGatewayChoice;

export interface Config {
  /** No database URL was given: the server runs its embedded database in `dataDir`. */
  readonly embedded: boolean;
  readonly siteUrl: string;
  /** `redirect_to` values permitted besides SITE_URL's host; globs. */
  readonly uriAllowList: readonly string[];
  readonly disableSignup: boolean;
  readonly dataDir: string;
  /** Multi-instance mode only (unsupported). */
  readonly operatorToken: string | undefined;
  readonly api: ApiConfig;
  readonly db: DbConfig;
  readonly log: LogConfig;
  readonly tracing: TracingConfig;
  readonly metrics: MetricsConfig;
  readonly otel: OtelConfig;
  readonly jwt: JwtConfig;
  readonly password: PasswordConfig;
  readonly security: SecurityConfig;
  readonly rateLimit: RateLimitConfig;
  readonly external: ExternalConfig;
  readonly smtp: SmtpConfig;
  readonly mailer: MailerConfig;
  readonly sms: SmsConfig;
}
