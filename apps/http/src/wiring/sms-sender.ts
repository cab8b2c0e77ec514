import { messagebirdSms, textlocalSms, twilioSms, vonageSms } from "@authsvc/adapters";
import { failures, type SmsSender } from "@authsvc/core";
import type { Config } from "../config.js";

/** With no gateway, an SMS that must go out fails the request instead of vanishing. */
const noSmsProvider: SmsSender = {
  async send() {
    throw failures.smsSendFailed("no SMS provider is configured");
  },
};

/** The gateway `SMS_PROVIDER` selects, built from its settings (base URL override included). */
export function smsSenderOf(config: Config): SmsSender {
  const sms = config.sms;
  switch (sms.provider) {
    case "twilio":
      return twilioSms(sms.twilio);
    case "messagebird":
      return messagebirdSms(sms.messagebird);
    case "textlocal":
      return textlocalSms(sms.textlocal);
    case "vonage":
      return vonageSms(sms.vonage);
    case undefined:
      return noSmsProvider;
  }
}
