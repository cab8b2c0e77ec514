import { blankUser } from "@authsvc/core/accounts";
import type { MailKind } from "@authsvc/core/messaging";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTemplateServer } from "../testing/mail/template-server.js";
import { localeOf, mailRenderer, textOf } from "./mail-renderer.js";
import { KIND_NAMES } from "./templates.js";

let templates: Awaited<ReturnType<typeof startTemplateServer>>;
beforeAll(async () => {
  templates = await startTemplateServer({
    "/own.html": { status: 200, body: "<p>own {{ .Token }}</p>" },
    "/fr.html": {
      status: 200,
      body: '<h2>Lien</h2><p>Code&nbsp;: {{ .Token }} &amp; <a href="{{ .SiteURL }}">site</a></p>',
    },
    "/de-gone.html": { status: 404, body: "no" },
  });
});
afterAll(() => templates?.close());

const subjects = Object.fromEntries(Object.keys(KIND_NAMES).map((kind) => [kind, `own ${kind}`])) as Record<
  MailKind,
  string
>;
const user = (locale?: unknown) =>
  blankUser({
    id: "00000000-0000-4000-8000-000000000001",
    aud: "authenticated",
    role: "authenticated",
    createdAt: new Date(0),
    userMetadata: locale === undefined ? {} : { locale },
  });

describe("mailRenderer in locales", () => {
  const renderer = () =>
    mailRenderer({
      siteUrl: "https://app.example.com",
      subjects,
      templates: { magic_link: templates.url("/own.html") },
      localized: {
        subjects: { magic_link: { fr: "Votre lien", de: "Ihr Link" } },
        templates: { magic_link: { fr: templates.url("/fr.html"), de: templates.url("/de-gone.html") } },
      },
      warn: () => {},
    });
  const mail = (extra: object) => ({
    kind: "magic_link" as const,
    to: "a@example.com",
    token: "123456",
    ...extra,
  });

  it("renders the locale's subject and template, the text part from that template", async () => {
    const fr = await renderer().render(mail({ user: user("fr-CA") }));
    expect(fr.subject).toBe("Votre lien");
    expect(fr.html).toContain("Code&nbsp;: 123456 &amp; <a");
    expect(fr.text).toBe("Lien\nCode&nbsp;: 123456 & site (https://app.example.com)");
  });

  it("falls back to the kind's own template when the locale's cannot be fetched, keeping its subject", async () => {
    const de = await renderer().render(mail({ locales: ["de-AT"] }));
    expect(de.subject).toBe("Ihr Link");
    expect(de.html).toBe("<p>own 123456</p>");
  });

  it("uses the kind's own subject and template for a locale it does not have", async () => {
    const es = await renderer().render(mail({ user: user("es"), locales: ["it"] }));
    expect([es.subject, es.html]).toEqual(["own magic_link", "<p>own 123456</p>"]);
  });
});

describe("localeOf", () => {
  const has = (l: string) => ["fr", "pt-br"].includes(l);
  it("prefers the user's locale, then the request's, each whole then by language", () => {
    expect(localeOf({ kind: "recovery", to: "a", user: user("pt_BR"), locales: ["fr"] }, has)).toBe("pt-br");
    expect(localeOf({ kind: "recovery", to: "a", user: user(42), locales: ["de", "fr-CH"] }, has)).toBe("fr");
    expect(localeOf({ kind: "recovery", to: "a", locales: ["de"] }, has)).toBeUndefined();
  });
});

describe("textOf", () => {
  it("keeps block ends as lines, links with their target, and no tags", () => {
    expect(textOf('<h2>Hi</h2>\n<p>One<br>two &lt;3</p><p><a href="https://x">go</a></p>')).toBe(
      "Hi\n\nOne\ntwo <3\ngo (https://x)",
    );
  });
});
