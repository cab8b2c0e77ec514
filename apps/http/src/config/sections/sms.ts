/** SMS: codes by text message, and the credentials of each gateway (only the selected one's are required). */
import type { AuthSettings } from "@authsvc/core";
import * as k from "../kinds.js";
import type { Reader } from "../reader.js";
import type { Config } from "../types.js";
import { defineVariables, PREFIX } from "../variable.js";
import { must, type SettleContext } from "./context.js";

export const SMS_PROVIDERS = ["twilio", "messagebird", "textlocal", "vonage"] as const;
export type SmsProvider = (typeof SMS_PROVIDERS)[number];

let variable = defineVariables("SMS");
export const smsVariables = {
  autoconfirm: variable({
    key: "SMS_AUTOCONFIRM",
    kind: k.boolean,
    default: "false",
    description: "Phone numbers count as confirmed at sign-up; no SMS.",
  }),
  maxFrequency: variable({
    key: "SMS_MAX_FREQUENCY",
    kind: k.seconds(),
    default: "60",
    description: "Minimum time between two SMS codes to one user.",
  }),
  otpExp: variable({
    key: "SMS_OTP_EXP",
    kind: k.seconds({ min: 1 }),
    default: "60",
    description: "Validity of an SMS code.",
  }),
  otpLength: variable({
    key: "SMS_OTP_LENGTH",
    kind: k.wholeNumber({ min: 6, max: 10 }),
    default: "6",
    description: "Digits in an SMS code.",
  }),
  provider: variable({
    key: "SMS_PROVIDER",
    kind: k.oneOf(SMS_PROVIDERS),
    description: "SMS gateway. Its credentials below become required. Unset: no SMS can be sent.",
  }),
};

variable = defineVariables("SMS gateways");
const whenSelected = (gateway: SmsProvider) => `when ${PREFIX}SMS_PROVIDER is ${gateway}` as const;
const baseUrl = (gateway: SmsProvider) =>
  variable({
    key: `SMS_${gateway.toUpperCase()}_BASE_URL`,
    kind: k.url,
    computedDefault: "the gateway's public API",
    description: `Base URL of the ${gateway} API (tests point it at a fake).`,
  });

export const smsGateways = {
  twilio: {
    accountSid: variable({
      key: "SMS_TWILIO_ACCOUNT_SID",
      kind: k.text,
      required: whenSelected("twilio"),
      description: "Twilio account SID.",
    }),
    authToken: variable({
      key: "SMS_TWILIO_AUTH_TOKEN",
      kind: k.secret(),
      required: whenSelected("twilio"),
      description: "Twilio auth token.",
    }),
    messageServiceSid: variable({
      key: "SMS_TWILIO_MESSAGE_SERVICE_SID",
      kind: k.text,
      required: whenSelected("twilio"),
      description: "Twilio message-service SID, or the sender phone number.",
    }),
    baseUrl: baseUrl("twilio"),
  },
  messagebird: {
    accessKey: variable({
      key: "SMS_MESSAGEBIRD_ACCESS_KEY",
      kind: k.secret(),
      required: whenSelected("messagebird"),
      description: "MessageBird access key.",
    }),
    originator: variable({
      key: "SMS_MESSAGEBIRD_ORIGINATOR",
      kind: k.text,
      required: whenSelected("messagebird"),
      description: "Sender: a phone number with `+`, or a company name.",
    }),
    baseUrl: baseUrl("messagebird"),
  },
  textlocal: {
    apiKey: variable({
      key: "SMS_TEXTLOCAL_API_KEY",
      kind: k.secret(),
      required: whenSelected("textlocal"),
      description: "Textlocal API key.",
    }),
    sender: variable({
      key: "SMS_TEXTLOCAL_SENDER",
      kind: k.text,
      required: whenSelected("textlocal"),
      description: "Textlocal sender name.",
    }),
    baseUrl: baseUrl("textlocal"),
  },
  vonage: {
    apiKey: variable({
      key: "SMS_VONAGE_API_KEY",
      kind: k.secret(),
      required: whenSelected("vonage"),
      description: "Vonage API key.",
    }),
    apiSecret: variable({
      key: "SMS_VONAGE_API_SECRET",
      kind: k.secret(),
      required: whenSelected("vonage"),
      description: "Vonage API secret.",
    }),
    from: variable({
      key: "SMS_VONAGE_FROM",
      kind: k.text,
      required: whenSelected("vonage"),
      description: "Vonage sender number or name.",
    }),
    baseUrl: baseUrl("vonage"),
  },
};

/** Every variable of the section, in the order the docs present them. */
export const variables = [
  ...Object.values(smsVariables),
  ...Object.values(smsGateways).flatMap((gateway) => Object.values(gateway)),
];

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

export const read = (r: Reader) => ({
  sms: r.getAll(smsVariables),
  gateways: {
    twilio: r.getAll(smsGateways.twilio),
    messagebird: r.getAll(smsGateways.messagebird),
    textlocal: r.getAll(smsGateways.textlocal),
    vonage: r.getAll(smsGateways.vonage),
  },
});

export function settle(values: ReturnType<typeof read>, ctx: SettleContext): { sms: SmsConfig } {
  const { sms } = values;
  for (const gateway of SMS_PROVIDERS) {
    for (const variable of Object.values(smsGateways[gateway])) {
      if (variable.required !== "no") ctx.r.requireIf(sms.provider === gateway, variable);
    }
  }
  return {
    sms: {
      autoconfirm: sms.autoconfirm,
      maxFrequency: sms.maxFrequency,
      otpExp: sms.otpExp,
      otpLength: sms.otpLength,
      ...smsGateway(ctx, sms.provider, values.gateways),
    },
  };
}

/** Only the selected gateway is passed on; its credentials were required above. */
function smsGateway(
  ctx: SettleContext,
  provider: ReturnType<typeof read>["sms"]["provider"],
  g: ReturnType<typeof read>["gateways"],
): SmsGatewayChoice {
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
          accountSid: must(ctx, g.twilio.accountSid, t.accountSid),
          authToken: must(ctx, g.twilio.authToken, t.authToken),
          messageServiceSid: must(ctx, g.twilio.messageServiceSid, t.messageServiceSid),
          baseUrl: g.twilio.baseUrl,
        },
      };
    case "messagebird":
      return {
        provider,
        messagebird: {
          accessKey: must(ctx, g.messagebird.accessKey, m.accessKey),
          originator: must(ctx, g.messagebird.originator, m.originator),
          baseUrl: g.messagebird.baseUrl,
        },
      };
    case "textlocal":
      return {
        provider,
        textlocal: {
          apiKey: must(ctx, g.textlocal.apiKey, x.apiKey),
          sender: must(ctx, g.textlocal.sender, x.sender),
          baseUrl: g.textlocal.baseUrl,
        },
      };
    case "vonage":
      return {
        provider,
        vonage: {
          apiKey: must(ctx, g.vonage.apiKey, n.apiKey),
          apiSecret: must(ctx, g.vonage.apiSecret, n.apiSecret),
          from: must(ctx, g.vonage.from, n.from),
          baseUrl: g.vonage.baseUrl,
        },
      };
  }
}

/** What the verification slice needs to send and check SMS codes. */
export function smsSettings(config: Config): AuthSettings["sms"] {
  return {
    otpExp: config.sms.otpExp,
    otpLength: config.sms.otpLength,
    maxFrequency: config.sms.maxFrequency,
    rateLimitPerHour: config.rateLimit.smsSent,
  };
}

declare module "../types.js" {
  interface Config {
    readonly sms: SmsConfig;
  }
}
