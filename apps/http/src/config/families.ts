/**
 * Variable families: one variable per mail kind, five per OAuth provider, a few per SMS gateway.
 * A name inside a family's prefix that matches no member is reported, because it is almost always
 * a typo (`…_MAGICLINK`) or a provider this server does not support, and ignoring it would leave a
 * setting silently without effect.
 */
import * as k from "./kinds.js";
import {
  EXTERNAL_PROVIDERS,
  MAIL_KINDS,
  type MailKind,
  SMS_PROVIDERS,
  type SmsProvider,
  URL_PATH_KINDS,
} from "./types.js";
import { defineVariables, PREFIX } from "./variable.js";

/** `magicLink` → `MAGIC_LINK`, `linkedin_oidc` → `LINKEDIN_OIDC`. */
const envSuffix = (key: string): string => key.replace(/[A-Z]/g, (c) => `_${c}`).toUpperCase();

export function byKey<K extends string, T>(keys: readonly K[], make: (key: K) => T): Readonly<Record<K, T>> {
  // Object.fromEntries loses the key type; every key of `keys` is present by construction.
  return Object.fromEntries(keys.map((key) => [key, make(key)])) as Record<K, T>;
}

// Defaults from the spec's Events table; the reauthentication subject is the reference server's.
const SUBJECTS: Readonly<Record<MailKind, string>> = {
  invite: "You have been invited",
  confirmation: "Confirm Your Signup",
  recovery: "Reset Your Password",
  magicLink: "Your Magic Link",
  emailChange: "Confirm Email Change",
  reauthentication: "Confirm reauthentication",
};
const MAIL_NAMES: Readonly<Record<MailKind, string>> = {
  invite: "invite",
  confirmation: "signup confirmation",
  recovery: "password recovery",
  magicLink: "magic link",
  emailChange: "email change",
  reauthentication: "reauthentication",
};

let variable = defineVariables("Email subjects, links and templates");
export const mailer = {
  subjects: byKey(MAIL_KINDS, (kind) =>
    variable({
      key: `MAILER_SUBJECTS_${envSuffix(kind)}`,
      kind: k.text,
      default: SUBJECTS[kind],
      description: `Subject of the ${MAIL_NAMES[kind]} email.`,
    }),
  ),
  urlPaths: byKey(URL_PATH_KINDS, (kind) =>
    variable({
      key: `MAILER_URLPATHS_${envSuffix(kind)}`,
      kind: k.urlPath,
      default: "/verify",
      description: `Path (after \`AUTHSVC_API_EXTERNAL_URL\`) or URL of the link in the ${MAIL_NAMES[kind]} email.`,
    }),
  ),
  templates: byKey(MAIL_KINDS, (kind) =>
    variable({
      key: `MAILER_TEMPLATES_${envSuffix(kind)}`,
      kind: k.url,
      computedDefault: "built-in template",
      description: `URL of the HTML template of the ${MAIL_NAMES[kind]} email.`,
    }),
  ),
};

variable = defineVariables("External OAuth providers");
export const externalProviders = byKey(EXTERNAL_PROVIDERS, (id) => {
  const key = `EXTERNAL_${envSuffix(id)}`;
  const whenEnabled = `when ${PREFIX}${key}_ENABLED is true` as const;
  return {
    enabled: variable({
      key: `${key}_ENABLED`,
      kind: k.boolean,
      default: "false",
      description: `Sign-in with ${id}.`,
    }),
    clientId: variable({
      key: `${key}_CLIENT_ID`,
      kind: k.text,
      required: whenEnabled,
      description: `OAuth 2.0 client ID at ${id}.`,
    }),
    secret: variable({
      key: `${key}_SECRET`,
      kind: k.secret(),
      required: whenEnabled,
      description: `OAuth 2.0 client secret at ${id}.`,
    }),
    redirectUri: variable({
      key: `${key}_REDIRECT_URI`,
      kind: k.url,
      required: whenEnabled,
      description: `Where ${id} sends the user back: this service's \`/callback\`.`,
    }),
    // Keycloak is always self-hosted, so there is no public host to fall back to.
    url:
      id === "keycloak"
        ? variable({
            key: `${key}_URL`,
            kind: k.url,
            required: whenEnabled,
            description: "Base URL of your Keycloak realm.",
          })
        : variable({
            key: `${key}_URL`,
            kind: k.url,
            computedDefault: "the provider's public host",
            description: `Base URL for ${id} authorization and token requests (self-hosted instances, tests).`,
          }),
  };
});

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

const FAMILIES: readonly { readonly prefix: string; readonly hint: string }[] = [
  { prefix: "MAILER_SUBJECTS_", hint: `kinds are ${MAIL_KINDS.map(envSuffix).join(", ")}` },
  { prefix: "MAILER_URLPATHS_", hint: `kinds are ${URL_PATH_KINDS.map(envSuffix).join(", ")}` },
  { prefix: "MAILER_TEMPLATES_", hint: `kinds are ${MAIL_KINDS.map(envSuffix).join(", ")}` },
  {
    prefix: "EXTERNAL_",
    hint: `providers are ${EXTERNAL_PROVIDERS.map(envSuffix).join(", ")}, each with _ENABLED, _CLIENT_ID, _SECRET, _REDIRECT_URI, _URL`,
  },
  {
    prefix: "SMS_",
    hint: `gateways are ${SMS_PROVIDERS.map(envSuffix).join(", ")}; see the README (Configuration)`,
  },
].map(({ prefix, hint }) => ({ prefix: `${PREFIX}${prefix}`, hint }));

/** Problems for set variables that sit inside a family's prefix but are not one of its members. */
export function unknownFamilyMembers(
  vars: Readonly<Record<string, string | undefined>>,
  known: ReadonlySet<string>,
): string[] {
  const problems: string[] = [];
  for (const [name, value] of Object.entries(vars)) {
    if (value === undefined || value.trim() === "" || known.has(name)) continue;
    const family = FAMILIES.find(({ prefix }) => name.startsWith(prefix));
    if (family !== undefined) problems.push(`${name}: unknown variable (a typo?); ${family.hint}`);
  }
  return problems;
}
