import { describe, expect, it } from "vitest";
import { loadConfig } from "../../composition/config.js";
import { escapeHtml, stylesheet } from "./layout.js";
import { catalogue, chooseLocale, fill } from "./texts.js";

const production = {
  AUTHSVC_DB_DATABASE_URL: "postgres://authsvc:pw@db.internal:5432/authsvc",
  AUTHSVC_SITE_URL: "https://app.example.com",
  AUTHSVC_API_EXTERNAL_URL: "https://auth.example.com",
  AUTHSVC_JWT_SECRET: "jwt-secret-for-tests-0123456789",
};
const load = (env: Record<string, string>) => loadConfig({ ...production, ...env });

describe("the hosted pages' languages", () => {
  const have = ["en", "fr", "pt-br"];
  it("takes ui_locales first, then Accept-Language by q-value, each whole then by language", () => {
    expect(chooseLocale(have, "de fr", "en", "en")).toBe("fr");
    expect(chooseLocale(have, undefined, "de, fr-CA;q=0.8, en;q=0.5", "en")).toBe("fr");
    expect(chooseLocale(have, undefined, "en;q=0.1, pt-BR", "en")).toBe("pt-br");
    expect(chooseLocale(have, undefined, "fr;q=0", "en")).toBe("en");
    expect(chooseLocale(have, "ja", "<script>", "en")).toBe("en");
  });

  it("fills values escaped, and escapes the configured text itself", () => {
    expect(fill("Hi {email} <b>", { email: "<a@b>" }, escapeHtml)).toBe("Hi &lt;a@b&gt; &lt;b&gt;");
    expect(fill("{client}?", { client: "A&B" }, escapeHtml, (_, v) => `<span>${v}</span>`)).toBe(
      "<span>A&amp;B</span>?",
    );
  });

  it("adds a configured locale over English, and replaces a built-in text", () => {
    const texts = catalogue({ de: { allow: "Erlauben" }, fr: { deny: "Non" } });
    expect(texts.de?.allow).toBe("Erlauben");
    expect(texts.de?.deny).toBe("Deny");
    expect(texts.fr?.deny).toBe("Non");
    expect(texts.fr?.allow).toBe("Autoriser");
  });
});

describe("the hosted pages' configuration", () => {
  it("refuses a colour that is not #hex, an unknown text, a bad locale", () => {
    for (const [key, value] of [
      ["AUTHSVC_HOSTED_PAGES_COLOR_PRIMARY", "red;}body{background:url(x)"],
      ["AUTHSVC_HOSTED_PAGES_COLOR_TEXT", "#12345"],
      ["AUTHSVC_HOSTED_PAGES_TEXTS", '{"en":{"nope":"x"}}'],
      ["AUTHSVC_HOSTED_PAGES_TEXTS", '{"e n":{"allow":"x"}}'],
      ["AUTHSVC_HOSTED_PAGES_TEXTS", '{"en":{"allow":1}}'],
      ["AUTHSVC_HOSTED_PAGES_DEFAULT_LOCALE", "en_US"],
    ] as const) {
      const loaded = load({ [key]: value });
      expect(loaded.ok, `${key}=${value}`).toBe(false);
      if (!loaded.ok) expect(loaded.problems.map((p) => p.split(":")[0])).toEqual([key]);
    }
  });

  it("settles the theme, and the stylesheet carries only the validated colours", () => {
    const loaded = load({
      AUTHSVC_HOSTED_PAGES_COLOR_PRIMARY: "#7a1f5c",
      AUTHSVC_HOSTED_PAGES_TEXTS: '{"DE":{"allow":"Erlauben"}}',
      AUTHSVC_HOSTED_PAGES_LOGO_URL: "https://cdn.example/logo.png",
    });
    if (!loaded.ok) throw new Error(loaded.problems.join("\n"));
    const pages = loaded.config.hostedPages;
    expect(pages.colours).toEqual({ primary: "#7a1f5c", background: "#ffffff", text: "#1a1a1a" });
    expect(pages.texts).toEqual({ de: { allow: "Erlauben" } });
    expect(pages.logoUrl).toBe("https://cdn.example/logo.png");
    expect(stylesheet(pages)).toContain("--primary:#7a1f5c;");
    const forged = stylesheet({ ...pages, colours: { ...pages.colours, text: "red}*{x:y" } });
    expect(forged).toContain("--text:#1a1a1a}");
    expect(forged).not.toContain("red}");
  });
});
