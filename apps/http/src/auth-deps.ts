import {
  argon2Hasher,
  cryptoRandom,
  hs256Signer,
  logMailer,
  postgresStore,
  type Sql,
  secretTokens,
  smtpMailer,
  systemClock,
} from "@authsvc/adapters";
import { type AuthDeps, type AuthSettings, authError, type Mailer } from "@authsvc/core";
import type { Logger } from "pino";
import type { Config } from "./config.js";
import { logUnredacted } from "./logger.js";

/** The use cases' view of the configuration. */
export function authSettingsOf(config: Config): AuthSettings {
  return {
    siteUrl: config.siteUrl,
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

/**
 * Where mail goes: SMTP when `SMTP_HOST` is set; in embedded mode without SMTP, the log. Otherwise a
 * mail that must go out fails the request cleanly instead of vanishing.
 */
function mailerOf(config: Config, logger: Logger): Mailer {
  const smtp = config.smtp;
  if (smtp.host !== undefined) {
    const subjects = config.mailer.subjects;
    return smtpMailer({
      host: smtp.host,
      port: smtp.port,
      user: smtp.user,
      pass: smtp.pass,
      senderName: smtp.senderName,
      adminEmail: smtp.adminEmail,
      subjects: {
        confirmation: subjects.confirmation,
        invite: subjects.invite,
        recovery: subjects.recovery,
        magic_link: subjects.magicLink,
        email_change: subjects.emailChange,
        reauthentication: subjects.reauthentication,
      },
    });
  }
  if (config.embedded) return logMailer((fields, msg) => logUnredacted(logger, fields, msg));
  return {
    async send() {
      throw authError(500, "email_send_failed", "Error sending email: no SMTP_HOST is configured");
    },
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
    settings: authSettingsOf(config),
  };
}
