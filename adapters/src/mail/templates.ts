import type { Mail, MailKind } from "@authsvc/core/messaging";
import { parseTemplate, type Template, type TemplateData } from "./go-template.js";

/** How each kind is named in error messages: "Error sending magic link email". */
export const KIND_NAMES: Readonly<Record<MailKind, string>> = {
  confirmation: "confirmation",
  invite: "invite",
  recovery: "recovery",
  magic_link: "magic link",
  email_change: "email change",
  reauthentication: "reauthentication",
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

const WORDING: Readonly<Record<Exclude<MailKind, "reauthentication">, Wording>> = {
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
 * hash) and `redirect_to` its redirect. `Data` (user metadata in GoTrue) is empty here.
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
    Data: {},
  };
}

function parseUrl(url: string | undefined): URL | undefined {
  if (url === undefined) return undefined;
  try {
    return new URL(url);
  } catch {
    return undefined;
  }
}
