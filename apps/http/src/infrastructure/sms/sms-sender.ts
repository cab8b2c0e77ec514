import { logSms } from "@authsvc/adapters";
import { failures } from "@authsvc/core";
import type { SmsSender } from "@authsvc/core/messaging";
import type { Logger } from "pino";
import type { Config } from "../../config/types.js";
import { logUnredacted } from "../telemetry/logger.js";
import { SMS_GATEWAYS } from "./gateways/index.js";
import { LOG_SMS_PROVIDER } from "./section.js";

/** With no gateway, an SMS that must go out fails the request instead of vanishing. */
const noSmsProvider: SmsSender = {
  async send() {
    throw failures.smsSendFailed("no SMS provider is configured");
  },
};

/**
 * The gateway `SMS_PROVIDER` selects, built from its settings (base URL override included); with `log`,
 * the log (each text's code unredacted: a developer follows the flow from there).
 */
export function smsSenderOf(config: Config, logger: Logger): SmsSender {
  const { sms } = config;
  if (sms.provider === undefined) return noSmsProvider;
  if (sms.provider === LOG_SMS_PROVIDER) return logSms((fields, msg) => logUnredacted(logger, fields, msg));
  const gateway = SMS_GATEWAYS.find((candidate) => candidate.id === sms.provider);
  // The loader accepts only the ids of the list, and settles the selected gateway's values.
  if (!gateway || !("gateway" in sms)) throw new Error(`sms: no gateway "${sms.provider}"`);
  return gateway.sender(sms.gateway as never);
}
