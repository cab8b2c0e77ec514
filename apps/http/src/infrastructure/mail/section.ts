/**
 * Email: the mail server, confirmation rules, and per kind of mail its subject, link path and
 * template. Kinds are spelled as the Mailer port spells them (`magic_link`), here and in variable
 * names (`…_MAGIC_LINK`); the default subjects are defined here once.
 */
import type { AuthSettings } from "@authsvc/core";
import { type MailKind, NOTIFICATION_KINDS, type NotificationKind } from "@authsvc/core/messaging";
import * as v from "valibot";
import type { Family } from "../../config/families.js";
import * as k from "../../config/kinds.js";
import type { Reader } from "../../config/reader.js";
import { byKey, envSuffix, must, type SettleContext } from "../../config/sections/context.js";
import type { Config } from "../../config/shape.js";
import { defineVariables, PREFIX } from "../../config/variable.js";

// The reference's default subjects (listed in docs/http-api.md, Messages).
export const DEFAULT_SUBJECTS: Readonly<Record<MailKind, string>> = {
  invite: "You have been invited",
  confirmation: "Confirm Your Signup",
  recovery: "Reset Your Password",
  magic_link: "Your Magic Link",
  email_change: "Confirm Email Change",
  reauthentication: "Confirm reauthentication",
  // The notifications' subjects are the reference's defaults.
  password_changed_notification: "Your password was changed",
  email_changed_notification: "Your email address was changed",
  phone_changed_notification: "Your phone number was changed",
  identity_linked_notification: "A new sign-in method was linked to your account",
  identity_unlinked_notification: "A sign-in method was removed from your account",
  mfa_factor_enrolled_notification: "A new verification method was added to your account",
  mfa_factor_unenrolled_notification: "A verification method was removed from your account",
};
/**
 * Every kind of mail, in the order the docs list them. Taken from the subjects, whose type makes the
 * compiler insist on every kind the Mailer port has.
 */
export const MAIL_KINDS = Object.keys(DEFAULT_SUBJECTS) as readonly MailKind[];

const isNotification = (kind: MailKind): kind is NotificationKind =>
  (NOTIFICATION_KINDS as readonly string[]).includes(kind);

/** Mails that carry a link, and so a URL path: neither the reauthentication nonce nor a notification. */
export const URL_PATH_KINDS = MAIL_KINDS.filter(
  (kind): kind is Exclude<MailKind, "reauthentication" | NotificationKind> =>
    kind !== "reauthentication" && !isNotification(kind),
);
export type UrlPathKind = (typeof URL_PATH_KINDS)[number];

const MAIL_NAMES: Readonly<Record<MailKind, string>> = {
  invite: "invite",
  confirmation: "signup confirmation",
  recovery: "password recovery",
  magic_link: "magic link",
  email_change: "email change",
  reauthentication: "reauthentication",
  password_changed_notification: "password changed notification",
  email_changed_notification: "email changed notification (sent to the old address)",
  phone_changed_notification: "phone changed notification",
  identity_linked_notification: "identity linked notification",
  identity_unlinked_notification: "identity unlinked notification",
  mfa_factor_enrolled_notification: "MFA factor enrolled notification",
  mfa_factor_unenrolled_notification: "MFA factor removed notification",
};

/** What each notification tells, for its switch's description. */
const CHANGES: Readonly<Record<NotificationKind, string>> = {
  password_changed_notification: "the user's password changes (`PUT /user`)",
  email_changed_notification:
    "the user's email address changes (the change confirmed by `/verify`); mailed to the old address",
  phone_changed_notification: "the user's phone number changes (the change confirmed by `/verify`)",
  identity_linked_notification:
    "an identity is linked to the user (`/user/identities/authorize`, or a phone confirmed for the first time)",
  identity_unlinked_notification:
    "an identity is unlinked (`DELETE /user/identities/<id>`); mailed to the address the user had before",
  mfa_factor_enrolled_notification: "an MFA factor is verified for the first time",
  mfa_factor_unenrolled_notification: "an MFA factor is removed (`DELETE /factors/<id>`)",
};

/** `password_changed_notification` → `PASSWORD_CHANGED`: the reference's names of the switches. */
const changeSuffix = (kind: NotificationKind) => envSuffix(kind.replace(/_notification$/, ""));

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
      description: `Subject of the ${MAIL_NAMES[kind]} email; in a language: the name followed by \`_<LOCALE>\` (\`_FR\`, \`_PT_BR\`; [mail-templates.md](mail-templates.md#languages)).`,
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
      description: `URL of the HTML template of the ${MAIL_NAMES[kind]} email; in a language: the name followed by \`_<LOCALE>\`.`,
    }),
  ),
};

variable = defineVariables("Email notifications");
export const notificationVariables = byKey(NOTIFICATION_KINDS, (kind) =>
  variable({
    key: `MAILER_NOTIFICATIONS_${changeSuffix(kind)}_ENABLED`,
    kind: k.boolean,
    default: "false",
    description: `Mail the user when ${CHANGES[kind]}. Sent after the change has committed, through the mail server or the send-email hook; a mail that fails is logged, never failing the change.`,
  }),
);

/** Every variable of the section, in the order the docs present them. */
export const variables = [
  ...Object.values(serverVariables),
  ...Object.values(notificationVariables),
  ...Object.values(kindVariables.subjects),
  ...Object.values(kindVariables.urlPaths),
  ...Object.values(kindVariables.templates),
];

/** What a localized variable names after its kind: `FR`, `PT_BR` (a language, then maybe a region). */
const LOCALE_SUFFIX = /^([A-Z]{2,3})(?:_([A-Z0-9]{2,8}))?$/;
type LocalizedFamily = "MAILER_SUBJECTS_" | "MAILER_TEMPLATES_";

/**
 * The kind and locale a localized variable names (`AUTHSVC_MAILER_SUBJECTS_MAGIC_LINK_PT_BR` → magic_link,
 * `pt-br`), or undefined. Locales are lowercased, with `-` between language and region.
 */
export function localizedName(
  name: string,
  family: LocalizedFamily,
): { kind: MailKind; locale: string } | undefined {
  const rest = name.startsWith(`${PREFIX}${family}`) ? name.slice(PREFIX.length + family.length) : "";
  for (const kind of MAIL_KINDS) {
    const head = `${envSuffix(kind)}_`;
    if (!rest.startsWith(head)) continue;
    const match = LOCALE_SUFFIX.exec(rest.slice(head.length));
    if (match?.[1]) return { kind, locale: [match[1], match[2]].filter(Boolean).join("-").toLowerCase() };
  }
  return undefined;
}

/** Per kind, per locale: the values of the localized variables of one family. */
export type Localized = Readonly<Partial<Record<MailKind, Readonly<Record<string, string>>>>>;

function readLocalized(
  r: Reader,
  family: LocalizedFamily,
  check?: v.GenericSchema<string, string>,
): Localized {
  const out: Partial<Record<MailKind, Record<string, string>>> = {};
  for (const { name, raw } of r.withPrefix(`${PREFIX}${family}`)) {
    const named = localizedName(name, family);
    if (named === undefined) continue; // a declared variable, or unknown (reported with the family)
    const parsed = check ? v.safeParse(check, raw) : { success: true as const, output: raw };
    if (!parsed.success) {
      r.problem(name, `${parsed.issues[0].message}, got ${JSON.stringify(raw.slice(0, 80))}`);
      continue;
    }
    out[named.kind] = { ...out[named.kind], [named.locale]: parsed.output };
  }
  return out;
}

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
  /** Which account-change notifications are mailed. */
  readonly notifications: Readonly<Record<NotificationKind, boolean>>;
  /** Subjects and template URLs by kind and locale (`MAILER_SUBJECTS_<KIND>_<LOCALE>`, `MAILER_TEMPLATES_…`). */
  readonly localized: { readonly subjects: Localized; readonly templates: Localized };
}

export const read = (r: Reader) => ({
  server: r.getAll(serverVariables),
  subjects: r.getAll(kindVariables.subjects),
  urlPaths: r.getAll(kindVariables.urlPaths),
  templates: r.getAll(kindVariables.templates),
  notifications: r.getAll(notificationVariables),
  localized: {
    subjects: readLocalized(r, "MAILER_SUBJECTS_"),
    templates: readLocalized(r, "MAILER_TEMPLATES_", k.url.schema as v.GenericSchema<string, string>),
  },
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
      notifications: values.notifications,
      localized: values.localized,
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
  {
    prefix: "MAILER_SUBJECTS_",
    hint: `kinds are ${MAIL_KINDS.map(envSuffix).join(", ")}, each may end in a locale (_FR, _PT_BR)`,
    accepts: (name) => localizedName(name, "MAILER_SUBJECTS_") !== undefined,
  },
  { prefix: "MAILER_URLPATHS_", hint: `kinds are ${URL_PATH_KINDS.map(envSuffix).join(", ")}` },
  {
    prefix: "MAILER_TEMPLATES_",
    hint: `kinds are ${MAIL_KINDS.map(envSuffix).join(", ")}, each may end in a locale (_FR, _PT_BR)`,
    accepts: (name) => localizedName(name, "MAILER_TEMPLATES_") !== undefined,
  },
  {
    prefix: "MAILER_NOTIFICATIONS_",
    hint: `changes are ${NOTIFICATION_KINDS.map(changeSuffix).join(", ")}, each with _ENABLED`,
  },
];
