import {
  argon2Hasher,
  cryptoRandom,
  hs256Signer,
  postgresStore,
  type Sql,
  secretTokens,
  systemClock,
} from "@authsvc/adapters";
import type { AuthDeps, AuthSettings } from "@authsvc/core";
import type { Logger } from "pino";
import type { Config } from "./config.js";
import { mailerOf } from "./mailer-of.js";
import { smsSenderOf } from "./sms-sender-of.js";

/** The use cases' view of the configuration. */
export function authSettingsOf(config: Config): AuthSettings {
  const paths = config.mailer.urlPaths;
  return {
    siteUrl: config.siteUrl,
    apiExternalUrl: config.api.externalUrl,
    uriAllowList: config.uriAllowList,
    mailer: {
      otpExp: config.mailer.otpExp,
      otpLength: config.mailer.otpLength,
      maxFrequency: config.smtp.maxFrequency,
      rateLimitPerHour: config.rateLimit.emailSent,
      secureEmailChange: config.mailer.secureEmailChangeEnabled,
      urlPaths: {
        confirmation: paths.confirmation,
        invite: paths.invite,
        recovery: paths.recovery,
        magic_link: paths.magicLink,
        email_change: paths.emailChange,
      },
    },
    sms: {
      otpExp: config.sms.otpExp,
      otpLength: config.sms.otpLength,
      maxFrequency: config.sms.maxFrequency,
      rateLimitPerHour: config.rateLimit.smsSent,
    },
    jwt: {
      exp: config.jwt.exp,
      aud: config.jwt.aud,
      issuer: config.jwt.issuer,
      defaultRole: config.jwt.defaultGroupName,
      adminRoles: config.jwt.adminRoles,
    },
    password: {
      minLength: config.password.minLength,
      requiredCharacters: config.password.requiredCharacters,
    },
    refreshTokens: {
      rotationEnabled: config.security.refreshTokenRotationEnabled,
      reuseIntervalMs: config.security.refreshTokenReuseIntervalMs,
    },
    signup: {
      disabled: config.disableSignup,
      emailEnabled: config.external.email.enabled,
      phoneEnabled: config.external.phone.enabled,
      anonymousEnabled: config.external.anonymousUsers.enabled,
      mailerAutoconfirm: config.mailer.autoconfirm,
      smsAutoconfirm: config.sms.autoconfirm,
    },
    updatePasswordRequiresReauthentication: config.security.updatePasswordRequireReauthentication,
  };
}

/** Builds the ports the use cases run with. */
export function authDepsOf(config: Config, sql: Sql, logger: Logger): AuthDeps {
  const clock = systemClock();
  const hasher = argon2Hasher();
  // Build the dummy hash now, so the first sign-in of an unknown user costs what every later one does.
  void hasher.verifyDummy("");
  return {
    store: postgresStore(sql, { namespace: config.db.namespace }),
    clock,
    random: cryptoRandom(),
    tokens: secretTokens(config.jwt.secret),
    hasher,
    signer: hs256Signer(config.jwt.secret, { clock }),
    mailer: mailerOf(config, logger),
    sms: smsSenderOf(config),
    settings: authSettingsOf(config),
  };
}
