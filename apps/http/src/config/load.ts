import { knownNames } from "./catalog.js";
import { byKey, externalProviders, mailer, smsGateways, unknownFamilyMembers } from "./families.js";
import { Reader, type Values } from "./reader.js";
import {
  type Config,
  EXTERNAL_PROVIDERS,
  type ExternalProviderId,
  type OAuthProviderConfig,
  SMS_PROVIDERS,
  type SmsGatewayChoice,
  type SmtpConfig,
} from "./types.js";
import type { Variable } from "./variable.js";
import * as V from "./variables.js";

export interface LoadOptions {
  /**
   * The development JWT secret for embedded mode. Called only when embedded mode needs it, so the
   * caller may create and store the secret lazily (in `<AUTHSVC_DATA_DIR>/jwt-secret`).
   */
  readonly devJwtSecret?: (dataDir: string) => string;
}

export type LoadResult = { ok: true; config: Config; notices: string[] } | { ok: false; problems: string[] };

/** File name, inside AUTHSVC_DATA_DIR, under which callers keep the development JWT secret. */
export const DEV_JWT_SECRET_FILE = "jwt-secret";

const EMBEDDED_SITE_URL = "http://localhost:3000";
// The reference server raises smaller minimums to 6 rather than refusing them.
const LEAST_PASSWORD_LENGTH = 6;
const LEAST_JWT_SECRET_LENGTH = 16;

type ProviderValues = Values<(typeof externalProviders)[ExternalProviderId]>;
type GatewayValues = { readonly [G in keyof typeof smsGateways]: Values<(typeof smsGateways)[G]> };

/**
 * Parses and validates the configuration from `vars` (see `readEnvironment`). Returns every problem
 * at once, or the typed configuration with notices about defaults that embedded mode applied.
 */
export function loadConfig(
  vars: Readonly<Record<string, string | undefined>>,
  options: LoadOptions = {},
): LoadResult {
  const r = new Reader(vars);
  const notices: string[] = [];
  const general = r.getAll(V.general);
  const api = r.getAll(V.api);
  const db = r.getAll(V.db);
  const telemetry = r.getAll(V.telemetry);
  const jwt = r.getAll(V.jwt);
  const security = r.getAll(V.security);
  const rateLimit = r.getAll(V.rateLimit);
  const signIn = r.getAll(V.signIn);
  const mail = r.getAll(V.mail);
  const subjects = r.getAll(mailer.subjects);
  const urlPaths = r.getAll(mailer.urlPaths);
  const templates = r.getAll(mailer.templates);
  const sms = r.getAll(V.sms);
  const providers = byKey(EXTERNAL_PROVIDERS, (id) => r.getAll(externalProviders[id]));
  const gateways: GatewayValues = {
    twilio: r.getAll(smsGateways.twilio),
    messagebird: r.getAll(smsGateways.messagebird),
    textlocal: r.getAll(smsGateways.textlocal),
    vonage: r.getAll(smsGateways.vonage),
  };

  // A database URL that is set but malformed is a problem, not a wish for the embedded database.
  const embedded = !r.isSet(V.db.url);
  if (embedded)
    notices.push(
      `No database URL set (${V.db.url.name} or DATABASE_URL): using the embedded database in ${general.dataDir}`,
    );

  /** Outside embedded mode a missing value is a problem; inside it, `make` supplies a development value. */
  const orEmbedded = (variable: Variable<string>, make: () => string | undefined, what: string) => {
    if (r.isSet(variable)) return undefined; // set but invalid: already reported
    if (!embedded) {
      r.missing(variable);
      return undefined;
    }
    const value = make();
    if (value !== undefined) notices.push(`${variable.name} not set: ${what} (embedded mode)`);
    return value;
  };
  const siteUrl =
    general.siteUrl ?? orEmbedded(V.general.siteUrl, () => EMBEDDED_SITE_URL, `using ${EMBEDDED_SITE_URL}`);
  const localUrl = `http://localhost:${api.port}`;
  const externalUrl = api.externalUrl ?? orEmbedded(V.api.externalUrl, () => localUrl, `using ${localUrl}`);
  const secretFile = `${general.dataDir.replace(/\/+$/, "")}/${DEV_JWT_SECRET_FILE}`;
  const jwtSecret =
    jwt.secret ??
    orEmbedded(
      V.jwt.secret,
      () => devSecret(r, options, general.dataDir),
      `using the development secret kept in ${secretFile}`,
    );

  if (security.passwordMinLength < LEAST_PASSWORD_LENGTH) {
    notices.push(
      `${V.security.passwordMinLength.name} is ${security.passwordMinLength}: raised to ${LEAST_PASSWORD_LENGTH}, the least allowed`,
    );
  }
  r.requireIf(security.captchaEnabled, V.security.captchaSecret);
  r.requireIf(r.isSet(V.mail.smtpHost), V.mail.smtpAdminEmail);
  for (const id of EXTERNAL_PROVIDERS) {
    const { enabled, ...credentials } = externalProviders[id];
    for (const variable of Object.values(credentials)) {
      if (variable.required !== "no") r.requireIf(providers[id].enabled, variable);
    }
  }
  for (const gateway of SMS_PROVIDERS) {
    for (const variable of Object.values(smsGateways[gateway])) {
      if (variable.required !== "no") r.requireIf(sms.provider === gateway, variable);
    }
  }

  const problems = [...r.problems, ...unknownFamilyMembers(vars, knownNames)];
  if (problems.length > 0) return { ok: false, problems };

  const config: Config = {
    embedded,
    siteUrl: must(siteUrl, V.general.siteUrl),
    uriAllowList: general.uriAllowList,
    disableSignup: general.disableSignup,
    dataDir: general.dataDir,
    operatorToken: general.operatorToken,
    api: {
      host: api.host,
      port: api.port,
      externalUrl: must(externalUrl, V.api.externalUrl),
      endpoint: api.endpoint,
      requestIdHeader: api.requestIdHeader,
      maxRequestDurationMs: api.maxRequestDuration,
      corsAllowedHeaders: api.corsAllowedHeaders,
    },
    db: {
      driver: db.driver,
      url: db.url,
      maxPoolSize: db.maxPoolSize,
      preparedStatements: db.preparedStatements,
      namespace: db.namespace,
      connMaxIdleTimeMs: db.connMaxIdleTime,
      connMaxLifetimeMs: db.connMaxLifetime,
    },
    log: { level: telemetry.logLevel, file: telemetry.logFile },
    tracing: { enabled: telemetry.tracingEnabled, exporter: telemetry.tracingExporter },
    metrics: {
      enabled: telemetry.metricsEnabled,
      exporter: telemetry.metricsExporter,
      prometheus: { host: telemetry.prometheusHost, port: telemetry.prometheusPort },
    },
    otel: { resourceAttributes: telemetry.resourceAttributes },
    jwt: {
      secret: must(jwtSecret, V.jwt.secret),
      exp: jwt.exp,
      aud: jwt.aud,
      issuer: jwt.issuer,
      adminGroupName: jwt.adminGroupName,
      defaultGroupName: jwt.defaultGroupName,
      adminRoles: jwt.adminRoles,
    },
    password: {
      minLength: Math.max(LEAST_PASSWORD_LENGTH, security.passwordMinLength),
      requiredCharacters: security.passwordRequiredCharacters,
    },
    security: {
      refreshTokenRotationEnabled: security.refreshTokenRotationEnabled,
      refreshTokenReuseIntervalMs: security.refreshTokenReuseInterval,
      updatePasswordRequireReauthentication: security.updatePasswordRequireReauthentication,
      captcha: {
        provider: security.captchaProvider,
        timeoutMs: security.captchaTimeout,
        ...(security.captchaEnabled
          ? { enabled: true, secret: must(security.captchaSecret, V.security.captchaSecret) }
          : { enabled: false, secret: security.captchaSecret }),
      },
    },
    rateLimit: {
      header: rateLimit.header,
      emailSent: rateLimit.emailSent,
      smsSent: rateLimit.smsSent,
      tokenPer5Min: rateLimit.tokenPer5Min,
      verifyPer5Min: rateLimit.verifyPer5Min,
      otpPer5Min: rateLimit.otpPer5Min,
    },
    external: {
      email: { enabled: signIn.emailEnabled },
      phone: { enabled: signIn.phoneEnabled },
      anonymousUsers: { enabled: signIn.anonymousUsersEnabled },
      ...byKey(EXTERNAL_PROVIDERS, (id) => oauthProvider(id, providers[id])),
    },
    smtp: smtp(mail),
    mailer: {
      autoconfirm: mail.autoconfirm,
      secureEmailChangeEnabled: mail.secureEmailChangeEnabled,
      otpExp: mail.otpExp,
      otpLength: mail.otpLength,
      subjects,
      urlPaths,
      templates: Object.fromEntries(Object.entries(templates).filter(([, url]) => url !== undefined)),
    },
    sms: {
      autoconfirm: sms.autoconfirm,
      maxFrequency: sms.maxFrequency,
      otpExp: sms.otpExp,
      otpLength: sms.otpLength,
      ...smsGateway(sms.provider, gateways),
    },
  };
  return { ok: true, config: deepFreeze(config), notices };
}

function devSecret(r: Reader, options: LoadOptions, dataDir: string): string | undefined {
  if (options.devJwtSecret === undefined) {
    r.missing(V.jwt.secret);
    return undefined;
  }
  const secret = options.devJwtSecret(dataDir);
  if (secret.length >= LEAST_JWT_SECRET_LENGTH) return secret;
  r.problem(
    V.jwt.secret.name,
    `the development secret is shorter than ${LEAST_JWT_SECRET_LENGTH} characters`,
  );
  return undefined;
}

/** Required values are undefined only when a problem was recorded, and then no config is built. */
function must<T>(value: T | undefined, variable: Variable<unknown>): T {
  if (value === undefined)
    throw new Error(`config: ${variable.name} is missing, yet no problem was recorded`);
  return value;
}

function oauthProvider(id: ExternalProviderId, p: ProviderValues): OAuthProviderConfig {
  if (!p.enabled)
    return { enabled: false, clientId: p.clientId, secret: p.secret, redirectUri: p.redirectUri, url: p.url };
  const v = externalProviders[id];
  return {
    enabled: true,
    clientId: must(p.clientId, v.clientId),
    secret: must(p.secret, v.secret),
    redirectUri: must(p.redirectUri, v.redirectUri),
    url: p.url,
  };
}

function smtp(mail: Values<typeof V.mail>): SmtpConfig {
  const common = {
    port: mail.smtpPort,
    user: mail.smtpUser,
    pass: mail.smtpPass,
    maxFrequency: mail.smtpMaxFrequency,
  };
  if (mail.smtpHost === undefined) {
    return {
      ...common,
      host: undefined,
      adminEmail: mail.smtpAdminEmail,
      senderName: mail.smtpSenderName ?? mail.smtpAdminEmail,
    };
  }
  const adminEmail = must(mail.smtpAdminEmail, V.mail.smtpAdminEmail);
  return { ...common, host: mail.smtpHost, adminEmail, senderName: mail.smtpSenderName ?? adminEmail };
}

/** Only the selected gateway is passed on; its credentials were required above. */
function smsGateway(provider: Values<typeof V.sms>["provider"], g: GatewayValues): SmsGatewayChoice {
  const t = smsGateways.twilio;
  const m = smsGateways.messagebird;
  const x = smsGateways.textlocal;
  const n = smsGateways.vonage;
  switch (provider) {
    case undefined:
      return { provider };
    case "twilio":
      return {
        provider,
        twilio: {
          accountSid: must(g.twilio.accountSid, t.accountSid),
          authToken: must(g.twilio.authToken, t.authToken),
          messageServiceSid: must(g.twilio.messageServiceSid, t.messageServiceSid),
          baseUrl: g.twilio.baseUrl,
        },
      };
    case "messagebird":
      return {
        provider,
        messagebird: {
          accessKey: must(g.messagebird.accessKey, m.accessKey),
          originator: must(g.messagebird.originator, m.originator),
          baseUrl: g.messagebird.baseUrl,
        },
      };
    case "textlocal":
      return {
        provider,
        textlocal: {
          apiKey: must(g.textlocal.apiKey, x.apiKey),
          sender: must(g.textlocal.sender, x.sender),
          baseUrl: g.textlocal.baseUrl,
        },
      };
    case "vonage":
      return {
        provider,
        vonage: {
          apiKey: must(g.vonage.apiKey, n.apiKey),
          apiSecret: must(g.vonage.apiSecret, n.apiSecret),
          from: must(g.vonage.from, n.from),
          baseUrl: g.vonage.baseUrl,
        },
      };
  }
}

/** The config is shared by every request; freezing it turns an accidental write into an error. */
function deepFreeze<T>(value: T): T {
  if (typeof value === "object" && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const child of Object.values(value)) deepFreeze(child);
  }
  return value;
}
