/** SMS: codes by text message, and the credentials of each gateway (only the selected one's are required). */
import type { AuthSettings } from "@authsvc/core";
import type { Family } from "../../config/families.js";
import * as k from "../../config/kinds.js";
import type { Reader } from "../../config/reader.js";
import { envSuffix, must, type SettleContext } from "../../config/sections/context.js";
import type { Config } from "../../config/shape.js";
import { defineVariables } from "../../config/variable.js";
import { SMS_GATEWAYS } from "./gateways/index.js";
import { testOtpMap, timestamp } from "./test-otp.js";

/** `SMS_PROVIDER=log`: no gateway; each text, with its code, is written to the log (development). */
export const LOG_SMS_PROVIDER = "log";
/** The values `SMS_PROVIDER` takes: the ids of the gateways (infrastructure/sms/gateways/), and `log`. */
export const SMS_PROVIDERS: readonly string[] = [
  ...SMS_GATEWAYS.map((gateway) => gateway.id),
  LOG_SMS_PROVIDER,
];
export type SmsProvider = string;

const variable = defineVariables("SMS");
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
    kind: k.oneOf(SMS_PROVIDERS as [string, ...string[]]),
    computedDefault: "`log` in embedded mode",
    description:
      "SMS gateway; its credentials below become required. `log` sends nothing: each text, with its code, is written to the log (development; anyone who reads the log can use the codes). Unset outside embedded mode: no SMS can be sent.",
  }),
  testOtp: variable({
    key: "SMS_TEST_OTP",
    kind: testOtpMap,
    default: "",
    description:
      "Test phone numbers and their fixed codes, `phone:code,…` (`+` and spaces in a number are ignored). A code for such a number is never texted (no gateway, no send-SMS hook) and does not count against `RATE_LIMIT_SMS_SENT`; the fixed code verifies `sms` and `phone_change` as a texted one would (once, within `SMS_OTP_EXP`). `SMS_MAX_FREQUENCY` still applies. Not used for MFA phone factors.",
  }),
  testOtpValidUntil: variable({
    key: "SMS_TEST_OTP_VALID_UNTIL",
    kind: timestamp,
    default: "",
    description: "When the test phone numbers stop being test numbers (RFC 3339). Empty: never.",
  }),
};

/** Every variable of the section, in the order the docs present them. */
export const variables = [
  ...Object.values(smsVariables),
  ...SMS_GATEWAYS.flatMap((gateway) => Object.values(gateway.variables)),
];

interface SmsCommon {
  readonly autoconfirm: boolean;
  /** Test numbers (E.164 digits without `+`) and their fixed codes, and until when. */
  readonly testOtp: { readonly codes: ReadonlyMap<string, string>; readonly validUntil: Date | null };
  /** Minimum seconds between SMS OTPs to one user. */
  readonly maxFrequency: number;
  /** Validity of an SMS OTP, seconds. */
  readonly otpExp: number;
  readonly otpLength: number;
}
/**
 * Only the selected gateway's values are present, and then complete: what its `sender` (see
 * infrastructure/sms/gateways/) is built from.
 */
export type SmsGatewayChoice =
  | { readonly provider: undefined }
  | { readonly provider: typeof LOG_SMS_PROVIDER }
  | { readonly provider: SmsProvider; readonly gateway: Readonly<Record<string, unknown>> };
export type SmsConfig = SmsCommon & SmsGatewayChoice;

export const read = (r: Reader) => ({
  sms: r.getAll(smsVariables),
  gateways: SMS_GATEWAYS.map((gateway) => r.getAll(gateway.variables)),
});

export function settle(values: ReturnType<typeof read>, ctx: SettleContext): { sms: SmsConfig } {
  const { sms } = values;
  const index = SMS_GATEWAYS.findIndex((gateway) => gateway.id === sms.provider);
  for (const [i, gateway] of SMS_GATEWAYS.entries()) {
    for (const variable of Object.values(gateway.variables)) {
      if (variable.required !== "no") ctx.r.requireIf(i === index, variable);
    }
  }
  const selected = SMS_GATEWAYS[index];
  const common = {
    autoconfirm: sms.autoconfirm,
    maxFrequency: sms.maxFrequency,
    otpExp: sms.otpExp,
    otpLength: sms.otpLength,
    testOtp: { codes: sms.testOtp, validUntil: sms.testOtpValidUntil },
  };
  if (sms.provider === LOG_SMS_PROVIDER) return { sms: { ...common, provider: LOG_SMS_PROVIDER } };
  if (selected === undefined) {
    // Embedded mode is for development: its texts go to the log, as its mail does without SMTP.
    if (!ctx.embedded || ctx.r.isSet(smsVariables.provider))
      return { sms: { ...common, provider: undefined } };
    ctx.notices.push(
      `${smsVariables.provider.name} not set: text messages are written to the log (embedded mode)`,
    );
    return { sms: { ...common, provider: LOG_SMS_PROVIDER } };
  }
  // Each credential was required above: `must` only passes on a value that is present.
  const gateway = Object.fromEntries(
    Object.entries(selected.variables).map(([key, variable]) => {
      const value = values.gateways[index]?.[key];
      return [key, variable.required === "no" ? value : must(ctx, value, variable)];
    }),
  );
  return { sms: { ...common, provider: selected.id, gateway } };
}

/** Codes in the log of a server on a real database: chosen, so allowed, but said at every start. */
export const warnings = (config: Config): string[] =>
  config.sms.provider === LOG_SMS_PROVIDER && !config.embedded
    ? [
        `${smsVariables.provider.name}=log: text messages are not sent, each is written to the log with its code; anyone who reads the log can sign in with those codes`,
      ]
    : [];

/**
 * Whether a code may go by WhatsApp: Twilio sends it (as in the reference), a send-SMS hook decides
 * for itself (the reference lets any channel through then), and the development log writes it.
 */
export const whatsappCarried = (config: Config): boolean =>
  config.sms.provider === "twilio" ||
  config.sms.provider === LOG_SMS_PROVIDER ||
  config.hooks.send_sms !== undefined;

/** What the verification slice needs to send and check SMS codes. */
export function smsSettings(config: Config): AuthSettings["sms"] {
  return {
    otpExp: config.sms.otpExp,
    otpLength: config.sms.otpLength,
    maxFrequency: config.sms.maxFrequency,
    rateLimitPerHour: config.rateLimit.smsSent,
    testOtp: config.sms.testOtp,
    whatsapp: whatsappCarried(config),
  };
}

declare module "../../config/shape.js" {
  interface Config {
    readonly sms: SmsConfig;
  }
}

/** A few variables per gateway (config/families.ts). */
export const families: readonly Family[] = [
  {
    prefix: "SMS_",
    hint: `gateways are ${SMS_PROVIDERS.map(envSuffix).join(", ")}; see docs/configuration.md`,
  },
];
