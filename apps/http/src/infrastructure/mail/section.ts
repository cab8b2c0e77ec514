/**
 * Email: the mail server, confirmation rules, and per kind of mail its subject, link path and
 * template. Kinds are spelled as the Mailer port spells them (`magic_link`), here and in variable
 * names (`…_MAGIC_LINK`); the default subjects are defined here once.
 */
import type { AuthSettings } from "@authsvc/core";
import type { MailKind } from "@authsvc/core/messaging";
import type { Family } from "../../config/families.js";
import * as k from "../../config/kinds.js";
import type { Reader } from "../../config/reader.js";
import { byKey, envSuffix, must, type SettleContext } from "../../config/sections/context.js";
import type { Config } from "../../config/shape.js";
import { defineVariables } from "../../config/variable.js";

// The reference's default subjects (listed in docs/http-api.md, Messages).
export const DEFAULT_SUBJECTS: Readonly<Record<MailKind, string>> = {
  invite: "You have been invited",
  confirmation: "Confirm Your Signup",
  recovery: "Reset Your Password",
  magic_link: "Your Magic Link",
  email_change: "Confirm Email Change",
  reauthentication: "Confirm reauthentication",
};
/**
 * Every kind of mail, in the order the docs list them. Taken from the subjects, whose type makes the
 * compiler insist on every kind the Mailer port has.
 */
export const MAIL_KINDS = Object.keys(DEFAULT_SUBJECTS) as readonly MailKind[];

/** Mails that carry a link, and so a URL path. */
export const URL_PATH_KINDS = MAIL_KINDS.filter(
  (kind): kind is Exclude<MailKind, "reauthentication"> => kind !== "reauthentication",
);
export type UrlPathKind = (typeof URL_PATH_KINDS)[number];

const MAIL_NAMES: Readonly<Record<MailKind, string>> = {
  invite: "invite",
  confirmation: "signup confirmation",
  recovery: "password recovery",
  magic_link: "magic link",
  email_change: "email change",
  reauthentication: "reauthentication",
};

let variable = defineVariables("Email");
export const serverVariables = {
  smtpHost: variable({
    key: "SMTP_HOST",
    kind: k.host,
    description: "Mail server. Unset: no mail server is configured.",
  }),
  smtpPort: variable({
    key: "SMTP_PORT",
    kind: k.port(1),
    default: "587",
    description:
      "Mail server port. 465: TLS from the first byte; any other: STARTTLS when the server offers it.",
  }),
  smtpRequireTls: variable({
    key: "SMTP_REQUIRE_TLS",
    kind: k.boolean,
    default: "false",
    description:
      "Send only over TLS: on a port other than 465 the server must offer STARTTLS, else no mail is sent and each failure is logged (`mail not sent: …`, `smtp_error_code` `ETLS`).",
  }),
  smtpUser: variable({ key: "SMTP_USER", kind: k.text, description: "Mail server user, when it needs one." }),
  smtpPass: variable({ key: "SMTP_PASS", kind: k.secret(), description: "Mail server password." }),
  smtpAdminEmail: variable({
    key: "SMTP_ADMIN_EMAIL",
    kind: k.email,
    required: "when AUTHSVC_SMTP_HOST or AUTHSVC_MAILER_PROVIDER is set",
    description: "From address of every email.",
  }),
  smtpSenderName: variable({
    key: "SMTP_SENDER_NAME",
    kind: k.text,
    computedDefault: "the value of `AUTHSVC_SMTP_ADMIN_EMAIL`",
    description: "Sender display name.",
  }),
  smtpMaxFrequency: variable({
    key: "SMTP_MAX_FREQUENCY",
    kind: k.seconds(),
    default: "900",
    description: "Minimum time between two signup confirmation or password reset emails to one user.",
  }),
  autoconfirm: variable({
    key: "MAILER_AUTOCONFIRM",
    kind: k.boolean,
    default: "false",
    description: "Email addresses count as confirmed at sign-up; no confirmation email.",
  }),
  secureEmailChangeEnabled: variable({
    key: "MAILER_SECURE_EMAIL_CHANGE_ENABLED",
    kind: k.boolean,
    default: "true",
    description: "An email change must be confirmed from both the old and the new address.",
  }),
  otpExp: variable({
    key: "MAILER_OTP_EXP",
    kind: k.seconds({ min: 1 }),
    default: "3600",
    description: "Validity of an email link or code.",
  }),
  otpLength: variable({
    key: "MAILER_OTP_LENGTH",
    kind: k.wholeNumber({ min: 6, max: 10 }),
    default: "6",
    description: "Digits in an email code.",
  }),
};

variable = defineVariables("Email subjects, links and templates");
export const kindVariables = {
  subjects: byKey(MAIL_KINDS, (kind) =>
    variable({
      key: `MAILER_SUBJECTS_${envSuffix(kind)}`,
      kind: k.text,
      default: DEFAULT_SUBJECTS[kind],
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

/** Every variable of the section, in the order the docs present them. */
export const variables = [
  ...Object.values(serverVariables),
  ...Object.values(kindVariables.subjects),
  ...Object.values(kindVariables.urlPaths),
  ...Object.values(kindVariables.templates),
];

interface SmtpCommon {
  readonly port: number;
  /** Never send in clear (STARTTLS required below port 465's implicit TLS). */
  readonly requireTls: boolean;
  readonly user: string | undefined;
  readonly pass: string | undefined;
  /** Minimum seconds between confirmation or recovery emails to one user. */
  readonly maxFrequency: number;
}
/** Without a host, no mail server is configured (the caller decides what to do with mail). */
export type SmtpConfig =
  | (SmtpCommon & { readonly host: string; readonly adminEmail: string; readonly senderName: string })
  | (SmtpCommon & {
      readonly host: undefined;
      readonly adminEmail: string | undefined;
      readonly senderName: string | undefined;
    });

export interface MailerConfig {
  readonly autoconfirm: boolean;
  readonly secureEmailChangeEnabled: boolean;
  /** Validity of an email link or OTP, seconds. */
  readonly otpExp: number;
  readonly otpLength: number;
  readonly subjects: Readonly<Record<MailKind, string>>;
  /** A path (joined to `api.externalUrl`) or an absolute URL. */
  readonly urlPaths: Readonly<Record<UrlPathKind, string>>;
  /** URLs of HTML templates; built-in templates where undefined. */
  readonly templates: Readonly<Partial<Record<MailKind, string>>>;
}

export const read = (r: Reader) => ({
  server: r.getAll(serverVariables),
  subjects: r.getAll(kindVariables.subjects),
  urlPaths: r.getAll(kindVariables.urlPaths),
  templates: r.getAll(kindVariables.templates),
});

export function settle(
  values: ReturnType<typeof read>,
  ctx: SettleContext,
): { smtp: SmtpConfig; mailer: MailerConfig } {
  const mail = values.server;
  ctx.r.requireIf(ctx.r.isSet(serverVariables.smtpHost), serverVariables.smtpAdminEmail);
  return {
    smtp: smtp(mail, ctx),
    mailer: {
      autoconfirm: mail.autoconfirm,
      secureEmailChangeEnabled: mail.secureEmailChangeEnabled,
      otpExp: mail.otpExp,
      otpLength: mail.otpLength,
      subjects: values.subjects,
      urlPaths: values.urlPaths,
      templates: Object.fromEntries(Object.entries(values.templates).filter(([, url]) => url !== undefined)),
    },
  };
}

function smtp(mail: ReturnType<typeof read>["server"], ctx: SettleContext): SmtpConfig {
  const common = {
    port: mail.smtpPort,
    requireTls: mail.smtpRequireTls,
    user: mail.smtpUser,
    pass: mail.smtpPass,
    maxFrequency: mail.smtpMaxFrequency,
  };
  if (mail.smtpHost === undefined) {
    return {
      ...common,
      host: undefined,
      adminEmail: mail.smtpAdminEmail,
      senderName: mail.smtpSenderName ?? mail.smtpAdminEmail,
    };
  }
  const adminEmail = must(ctx, mail.smtpAdminEmail, serverVariables.smtpAdminEmail);
  return { ...common, host: mail.smtpHost, adminEmail, senderName: mail.smtpSenderName ?? adminEmail };
}

/** What the verification slice needs to send and check email links and codes. */
export function mailSettings(config: Config): AuthSettings["mailer"] {
  return {
    otpExp: config.mailer.otpExp,
    otpLength: config.mailer.otpLength,
    maxFrequency: config.smtp.maxFrequency,
    rateLimitPerHour: config.rateLimit.emailSent,
    secureEmailChange: config.mailer.secureEmailChangeEnabled,
    urlPaths: config.mailer.urlPaths,
  };
}

declare module "../../config/shape.js" {
  interface Config {
    readonly smtp: SmtpConfig;
    readonly mailer: MailerConfig;
  }
}

/** One subject, URL path and template variable per mail kind (config/families.ts). */
export const families: readonly Family[] = [
  { prefix: "MAILER_SUBJECTS_", hint: `kinds are ${MAIL_KINDS.map(envSuffix).join(", ")}` },
  { prefix: "MAILER_URLPATHS_", hint: `kinds are ${URL_PATH_KINDS.map(envSuffix).join(", ")}` },
  { prefix: "MAILER_TEMPLATES_", hint: `kinds are ${MAIL_KINDS.map(envSuffix).join(", ")}` },
];
