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
  /**
   * Subjects and template URLs by kind and locale (lowercase, `pt-br`): a mail in a locale that has
   * either takes them, the kind's own subject and template standing in for what the locale lacks.
   */
  readonly localized?: {
    readonly subjects?: Readonly<Partial<Record<MailKind, Readonly<Record<string, string>>>>>;
    readonly templates?: Readonly<Partial<Record<MailKind, Readonly<Record<string, string>>>>>;
  };
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
  for (const [kind, byLocale] of Object.entries(options.localized?.templates ?? {})) {
    for (const [locale, url] of Object.entries(byLocale ?? {})) {
      if (!/^https?:\/\//i.test(url)) {
        throw new TypeError(`${owner}: the ${kind} template for ${locale} is not an http(s) URL`);
      }
    }
  }
}

function parsedSubject(options: MailRenderOptions, kind: MailKind, subject: string): Template {
  try {
    return parseTemplate(subject);
  } catch (error) {
    if (!(error instanceof TemplateSyntaxError)) throw error;
    // A subject that merely contains "{{" is still a fine subject: send it as written.
    options.warn(
      { mail_kind: kind, error: error.message },
      "mail subject is not a valid template; sent as written",
    );
    return { nodes: [{ kind: "text", text: subject }] };
  }
}

function subjectTemplates(options: MailRenderOptions): Record<MailKind, Template> {
  const out = {} as Record<MailKind, Template>;
  for (const kind of Object.keys(KIND_NAMES) as MailKind[])
    out[kind] = parsedSubject(options, kind, options.subjects[kind]);
  return out;
}

/** The renderer of `options`; subjects are parsed once here, custom templates fetched (and cached) on use. */
export function mailRenderer(options: MailRenderOptions): MailRenderer {
  const subjects = subjectTemplates(options);
  const localSubjects = localizedSubjects(options);
  const templates = templateSource({ warn: options.warn, ...options.templateFetch });
  const localTemplates = options.localized?.templates ?? {};
  return {
    async render(mail) {
      const data = templateData(mail, options.siteUrl);
      const locale = localeOf(
        mail,
        (l) => l in (localSubjects[mail.kind] ?? {}) || l in (localTemplates[mail.kind] ?? {}),
      );
      const subject = (locale && localSubjects[mail.kind]?.[locale]) || subjects[mail.kind];
      // The locale's template, else the kind's own, else the built-in one: each only if it loads.
      const localUrl = locale ? localTemplates[mail.kind]?.[locale] : undefined;
      const local = localUrl !== undefined ? await templates.get(localUrl) : undefined;
      const ownUrl = options.templates?.[mail.kind];
      const own = local === undefined && ownUrl !== undefined ? await templates.get(ownUrl) : undefined;
      const html = renderTemplate(local ?? own ?? DEFAULT_HTML_TEMPLATES[mail.kind], data, { html: true });
      return {
        subject: renderTemplate(subject, data, { html: false }),
        // The built-in text part is English: a localized mail's text is its own HTML's, as text.
        text: local ? textOf(html) : renderTemplate(TEXT_TEMPLATES[mail.kind], data, { html: false }),
        html,
      };
    },
  };
}

/** The localized subjects, parsed once; a malformed one is sent as written, as the kinds' own. */
function localizedSubjects(options: MailRenderOptions): Partial<Record<MailKind, Record<string, Template>>> {
  const out: Partial<Record<MailKind, Record<string, Template>>> = {};
  for (const [kind, byLocale] of Object.entries(options.localized?.subjects ?? {}) as [
    MailKind,
    Readonly<Record<string, string>>,
  ][]) {
    const parsed: Record<string, Template> = {};
    for (const [locale, subject] of Object.entries(byLocale))
      parsed[locale] = parsedSubject(options, kind, subject);
    out[kind] = parsed;
  }
  return out;
}

/**
 * The mail's locale among those `has` knows: the user's own (`user_metadata.locale`), then the
 * request's (`mail.locales`), each tried whole (`pt-br`) then by its language (`pt`); undefined when
 * none is known, and the kind's own subject and template apply.
 */
export function localeOf(mail: Mail, has: (locale: string) => boolean): string | undefined {
  const own = mail.user?.userMetadata.locale;
  const wanted = [...(typeof own === "string" ? [own] : []), ...(mail.locales ?? [])];
  for (const tag of wanted) {
    const whole = tag.trim().toLowerCase().replaceAll("_", "-");
    for (const candidate of [whole, whole.split("-")[0] ?? ""])
      if (candidate && has(candidate)) return candidate;
  }
  return undefined;
}

const ENTITIES: Readonly<Record<string, string>> = {
  amp: "&",
  lt: "<",
  gt: ">",
  quot: '"',
  "#39": "'",
  "#34": '"',
};

/** The text of rendered HTML: block ends and `<br>` as line breaks, links followed by their target, no tags. */
export function textOf(html: string): string {
  return html
    .replace(/<a\s[^>]*href="([^"]*)"[^>]*>([\s\S]*?)<\/a>/gi, "$2 ($1)")
    .replace(/<(br|\/p|\/h[1-6]|\/div|\/li|\/tr)\b[^>]*>/gi, "\n")
    .replace(/<[^>]*>/g, "")
    .replace(/&(amp|lt|gt|quot|#39|#34);/g, (_, name: string) => ENTITIES[name] ?? "")
    .replace(/[ \t]+\n/g, "\n")
    .replace(/\n{3,}/g, "\n\n")
    .trim();
}
