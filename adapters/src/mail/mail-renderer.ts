import type { Mail, MailKind } from "@authsvc/core/messaging";
import { parseTemplate, renderTemplate, type Template, TemplateSyntaxError } from "./go-template.js";
import { templateSource, type Warn } from "./template-source.js";
import { DEFAULT_HTML_TEMPLATES, KIND_NAMES, TEXT_TEMPLATES, templateData } from "./templates.js";

/** What every mailer (SMTP or a provider's HTTP API) renders its messages from. */
export interface MailRenderOptions {
  /** The template variable `SiteURL`. */
  readonly siteUrl: string;
  /**
   * The subject of every kind (Go-template syntax allowed, as in GoTrue). Required: the defaults are the
   * configuration's (`MAILER_SUBJECTS_*`), defined once there.
   */
  readonly subjects: Readonly<Record<MailKind, string>>;
  /** URLs of HTML templates by kind; the built-in template where absent or when the fetch fails. */
  readonly templates?: Readonly<Partial<Record<MailKind, string | undefined>>>;
  /** Warnings: a template that could not be fetched or parsed. Never given links, codes or secrets. */
  readonly warn: Warn;
  /** Template fetch timeout, cache lifetime, and how long a failed fetch is remembered; in ms. */
  readonly templateFetch?: {
    readonly timeoutMs?: number;
    readonly ttlMs?: number;
    readonly failureTtlMs?: number;
  };
}

/** A message ready for a transport: its subject and both parts. */
export interface RenderedMail {
  readonly subject: string;
  readonly text: string;
  readonly html: string;
}

/** Renders each mail with its kind's subject, the custom HTML template when reachable, and the text template. */
export interface MailRenderer {
  render(mail: Mail): Promise<RenderedMail>;
}

/** The sender of every mail: `name <address>`, or the bare address when the name is empty or the address itself. */
export interface MailSender {
  readonly name?: string;
  readonly address: string;
}

export function mailSender(senderName: string, adminEmail: string): MailSender {
  // A display name that merely repeats the address (the configuration's default) adds nothing.
  return senderName && senderName !== adminEmail
    ? { name: senderName, address: adminEmail }
    : { address: adminEmail };
}

/** Throws a `TypeError` naming `owner` when the subjects or template URLs cannot be used. */
export function validateRenderOptions(owner: string, options: MailRenderOptions): void {
  for (const kind of Object.keys(KIND_NAMES)) {
    if (typeof options.subjects?.[kind as MailKind] !== "string") {
      throw new TypeError(`${owner}: the ${kind} subject is missing`);
    }
  }
  for (const [kind, url] of Object.entries(options.templates ?? {})) {
    if (url !== undefined && !/^https?:\/\//i.test(url)) {
      throw new TypeError(`${owner}: the ${kind} template is not an http(s) URL`);
    }
  }
}

function subjectTemplates(options: MailRenderOptions): Record<MailKind, Template> {
  const out = {} as Record<MailKind, Template>;
  for (const kind of Object.keys(KIND_NAMES) as MailKind[]) {
    const subject = options.subjects[kind];
    try {
      out[kind] = parseTemplate(subject);
    } catch (error) {
      if (!(error instanceof TemplateSyntaxError)) throw error;
      // A subject that merely contains "{{" is still a fine subject: send it as written.
      options.warn(
        { mail_kind: kind, error: error.message },
        "mail subject is not a valid template; sent as written",
      );
      out[kind] = { nodes: [{ kind: "text", text: subject }] };
    }
  }
  return out;
}

/** The renderer of `options`; subjects are parsed once here, custom templates fetched (and cached) on use. */
export function mailRenderer(options: MailRenderOptions): MailRenderer {
  const subjects = subjectTemplates(options);
  const templates = templateSource({ warn: options.warn, ...options.templateFetch });
  return {
    async render(mail) {
      const data = templateData(mail, options.siteUrl);
      const url = options.templates?.[mail.kind];
      const html =
        (url !== undefined ? await templates.get(url) : undefined) ?? DEFAULT_HTML_TEMPLATES[mail.kind];
      return {
        subject: renderTemplate(subjects[mail.kind], data, { html: false }),
        text: renderTemplate(TEXT_TEMPLATES[mail.kind], data, { html: false }),
        html: renderTemplate(html, data, { html: true }),
      };
    },
  };
}
