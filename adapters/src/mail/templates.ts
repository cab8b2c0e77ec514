import type { Mail, MailKind, NotificationKind } from "@authsvc/core/messaging";
import { parseTemplate, type Template, type TemplateData } from "./go-template.js";

/** How each kind is named in error messages: "Error sending magic link email". */
export const KIND_NAMES: Readonly<Record<MailKind, string>> = {
  confirmation: "confirmation",
  invite: "invite",
  recovery: "recovery",
  magic_link: "magic link",
  email_change: "email change",
  reauthentication: "reauthentication",
  password_changed_notification: "password changed notification",
  email_changed_notification: "email changed notification",
  phone_changed_notification: "phone changed notification",
  identity_linked_notification: "identity linked notification",
  identity_unlinked_notification: "identity unlinked notification",
  mfa_factor_enrolled_notification: "MFA factor enrolled notification",
  mfa_factor_unenrolled_notification: "MFA factor unenrolled notification",
};

// The default templates are written in the same Go-template syntax as custom ones, so both go through
// one renderer (and one escaping rule). The code is offered whenever the mail carries one.
const CODE_HTML = "{{ if .Token }}<p>Alternatively, enter the code: {{ .Token }}</p>{{ end }}";
const CODE_TEXT = "{{ if .Token }}\n\nAlternatively, enter the code: {{ .Token }}{{ end }}";
const CHANGE =
  "the change of your email address{{ if .Email }} from {{ .Email }}{{ end }} to {{ .NewEmail }}";

interface Wording {
  readonly heading: string;
  readonly intro: string;
  readonly action: string;
}

const WORDING: Readonly<Record<Exclude<MailKind, "reauthentication" | NotificationKind>, Wording>> = {
  confirmation: {
    heading: "Confirm your signup",
    intro: "Follow this link to confirm your email address {{ .Email }}:",
    action: "Confirm your email address",
  },
  invite: {
    heading: "You have been invited",
    intro: "You have been invited to create a user on {{ .SiteURL }}. Follow this link to accept the invite:",
    action: "Accept the invite",
  },
  recovery: {
    heading: "Reset your password",
    intro: "Follow this link to reset the password of {{ .Email }}:",
    action: "Reset your password",
  },
  magic_link: {
    heading: "Your magic link",
    intro: "Follow this link to log in as {{ .Email }}:",
    action: "Log in",
  },
  email_change: {
    heading: "Confirm the change of your email address",
    intro: `Follow this link to confirm ${CHANGE}:`,
    action: "Confirm the change",
  },
};

// The notifications' wording is the reference's (`templatemailer.go`): what changed, and what to do
// if it was not the user.
const NOT_YOU = "If you didn't make this change, contact support immediately.";
const NOTICES: Readonly<Record<NotificationKind, { heading: string; body: string; advice?: string }>> = {
  password_changed_notification: {
    heading: "Your password was changed",
    body: "The password for your account was recently changed.",
    advice: "If you didn't make this change, reset your password and contact support immediately.",
  },
  email_changed_notification: {
    heading: "Your email address was changed",
    body: "The email address for your account was changed from {{ .OldEmail }} to {{ .Email }}.",
  },
  phone_changed_notification: {
    heading: "Your phone number was changed",
    body: "The phone number for your account was changed from {{ .OldPhone }} to {{ .Phone }}.",
  },
  identity_linked_notification: {
    heading: "A new sign-in method was linked",
    body: "Your {{ .Provider }} account was linked as a new sign-in method for {{ .Email }}.",
  },
  identity_unlinked_notification: {
    heading: "A sign-in method was removed",
    body: "Your {{ .Provider }} account was removed as a sign-in method for {{ .Email }}.",
  },
  mfa_factor_enrolled_notification: {
    heading: "A new verification method was added",
    body: "Sign-in verification method {{ .FactorType }} was added to your account.",
  },
  mfa_factor_unenrolled_notification: {
    heading: "A verification method was removed",
    body: "Sign-in verification method {{ .FactorType }} was removed from your account.",
  },
};

const isNotice = (kind: MailKind): kind is NotificationKind => kind in NOTICES;

const page = (title: string, body: string) =>
  `<!doctype html>\n<html><head><meta charset="utf-8"><title>${title}</title></head>\n<body>\n${body}\n</body></html>\n`;

function defaults(kind: MailKind): { html: string; text: string } {
  if (kind === "reauthentication") {
    const heading = "Confirm reauthentication";
    return {
      html: page(heading, `<h2>${heading}</h2>\n<p>Enter the code: {{ .Token }}</p>`),
      text: `${heading}\n\nEnter the code: {{ .Token }}\n`,
    };
  }
  if (isNotice(kind)) {
    const { heading, body, advice = NOT_YOU } = NOTICES[kind];
    return {
      html: page(heading, `<h2>${heading}</h2>\n<p>${body}</p>\n<p>${advice}</p>`),
      text: `${heading}\n\n${body}\n\n${advice}\n`,
    };
  }
  const { heading, intro, action } = WORDING[kind];
  return {
    html: page(
      heading,
      `<h2>${heading}</h2>\n<p>${intro}</p>\n<p><a href="{{ .ConfirmationURL }}">${action}</a></p>\n${CODE_HTML}`,
    ),
    text: `${heading}\n\n${intro}\n{{ .ConfirmationURL }}${CODE_TEXT}\n`,
  };
}

const KINDS = Object.keys(KIND_NAMES) as MailKind[];
const parsed = (pick: "html" | "text") =>
  Object.fromEntries(KINDS.map((kind) => [kind, parseTemplate(defaults(kind)[pick])])) as Record<
    MailKind,
    Template
  >;

/** The built-in HTML body of each kind: a heading, one link, and the code when there is one. */
export const DEFAULT_HTML_TEMPLATES: Readonly<Record<MailKind, Template>> = parsed("html");
/** The plain-text part of each kind, written for text rather than stripped from the HTML. */
export const TEXT_TEMPLATES: Readonly<Record<MailKind, Template>> = parsed("text");

/**
 * The variables a template sees. `SiteURL`, `Email`, `NewEmail`, `ConfirmationURL` and `Token` are
 * ours; `SendingTo`, `TokenHash` and `RedirectTo` are GoTrue's, provided so its templates keep working:
 * the link's `token` parameter is the token hash (as in GoTrue, where `GET /verify?token=` takes the
 * hash) and `redirect_to` its redirect. `Data` is the user's metadata (`user_metadata`), as in GoTrue.
 * The notifications add the reference's `OldEmail`, `Phone`, `OldPhone`, `Provider` and `FactorType`.
 */
export function templateData(mail: Mail, siteUrl: string): TemplateData {
  const link = parseUrl(mail.confirmationUrl);
  return {
    SiteURL: siteUrl,
    // Without an explicit current address, a mail that goes to the new address knows no old one.
    Email: mail.email ?? (mail.to === mail.newEmail ? "" : mail.to),
    NewEmail: mail.newEmail ?? "",
    ConfirmationURL: mail.confirmationUrl ?? "",
    Token: mail.token ?? "",
    SendingTo: mail.to,
    TokenHash: link?.searchParams.get("token") ?? "",
    RedirectTo: link?.searchParams.get("redirect_to") ?? "",
    Data: metadataData(mail.user?.userMetadata ?? {}),
    OldEmail: mail.oldEmail ?? "",
    Phone: mail.phone ?? "",
    OldPhone: mail.oldPhone ?? "",
    Provider: mail.provider ?? "",
    FactorType: mail.factorType ?? "",
  };
}

/**
 * User metadata as template data: strings as they are, numbers and booleans as Go prints them, objects
 * recursively; null and arrays are left out (they render empty, as a missing key does).
 */
function metadataData(value: Readonly<Record<string, unknown>>): TemplateData {
  // No prototype: a `__proto__` key is then a key like any other.
  const out: Record<string, string | TemplateData> = Object.create(null);
  for (const [key, field] of Object.entries(value)) {
    if (typeof field === "string") out[key] = field;
    else if (typeof field === "number" || typeof field === "boolean") out[key] = String(field);
    else if (field !== null && typeof field === "object" && !Array.isArray(field)) {
      out[key] = metadataData(field as Record<string, unknown>);
    }
  }
  return out;
}

function parseUrl(url: string | undefined): URL | undefined {
  if (url === undefined) return undefined;
  try {
    return new URL(url);
  } catch {
    return undefined;
  }
}
