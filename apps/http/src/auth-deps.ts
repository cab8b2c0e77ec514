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
import { signupSettings } from "./config/sections/external.js";
import { redirectSettings } from "./config/sections/general.js";
import { jwtSettings } from "./config/sections/jwt.js";
import { mailSettings } from "./config/sections/mail.js";
import { securitySettings } from "./config/sections/security.js";
import { smsSettings } from "./config/sections/sms.js";
import type { Config } from "./config.js";
import { mailerOf } from "./mailer-of.js";
import { smsSenderOf } from "./sms-sender-of.js";

/** The use cases' view of the configuration, composed from each section's mapping. */
export function authSettingsOf(config: Config): AuthSettings {
  return {
    ...redirectSettings(config),
    mailer: mailSettings(config),
    sms: smsSettings(config),
    jwt: jwtSettings(config),
    ...securitySettings(config),
    signup: signupSettings(config),
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
