import { cryptoRandom, idTokenSigner, otpauthTotp, type Sql, systemClock } from "@authsvc/adapters";
import type { AuthDeps, DeliveryQueue } from "@authsvc/core";
import type { Logger } from "pino";
import type { Config } from "../config.js";
import { authSettingsOf } from "./auth-settings.js";
import { hasherOf, secretBoxOf, signerOf, tokensOf } from "./crypto.js";
import { storeOf } from "./database.js";
import { externalProvidersOf } from "./external-providers.js";
import { hooksOf, mailerWithHooks, smsWithHooks } from "./hooks.js";
import { mailerOf } from "./mailer.js";
import { smsSenderOf } from "./sms-sender.js";

/** Builds the ports the use cases run with: one builder per port family. */
export function authDepsOf(config: Config, sql: Sql, logger: Logger, deliveries: DeliveryQueue): AuthDeps {
  const clock = systemClock();
  const store = storeOf(config, sql);
  const hooks = hooksOf(config, store, logger);
  return {
    store,
    clock,
    random: cryptoRandom(),
    tokens: tokensOf(config),
    hasher: hasherOf(),
    signer: signerOf(config, clock),
    mailer: mailerWithHooks(config, hooks, mailerOf(config, logger)),
    sms: smsWithHooks(hooks, smsSenderOf(config)),
    deliveries,
    providers: externalProvidersOf(config),
    hooks,
    settings: authSettingsOf(config),
    totp: otpauthTotp(),
    secretBox: secretBoxOf(config),
    idTokens: idTokenSigner(config.jwt.keys),
  };
}
