import { failures } from "@authsvc/core";
import type { SmsSender } from "@authsvc/core/messaging";
import type { Config } from "../../config/types.js";
import { SMS_GATEWAYS } from "./gateways/index.js";

/** With no gateway, an SMS that must go out fails the request instead of vanishing. */
const noSmsProvider: SmsSender = {
  async send() {
    throw failures.smsSendFailed("no SMS provider is configured");
  },
};

/** The gateway `SMS_PROVIDER` selects, built from its settings (base URL override included). */
export function smsSenderOf(config: Config): SmsSender {
  const { sms } = config;
  if (sms.provider === undefined) return noSmsProvider;
  const gateway = SMS_GATEWAYS.find((candidate) => candidate.id === sms.provider);
  // The loader accepts only the ids of the list, and settles the selected gateway's values.
  if (!gateway) throw new Error(`sms: no gateway "${sms.provider}"`);
  return gateway.sender(sms.gateway as never);
}
