import { describe, expect, it } from "vitest";
import { parseTemplate, renderTemplate, TemplateSyntaxError } from "./go-template.js";

const data = {
  Email: "ann@example.com",
  Token: "123456",
  Empty: "",
  ConfirmationURL: "https://auth.example.com/verify?token=abc&type=signup",
  Data: { name: "Ann" },
};
const text = (source: string) => renderTemplate(parseTemplate(source), data, { html: false });
const html = (source: string) => renderTemplate(parseTemplate(source), data, { html: true });

describe("Go-template mail syntax", () => {
  it("substitutes fields with or without spaces inside the braces", () => {
    expect(text("Hi {{ .Email }}, code {{.Token}}.")).toBe("Hi ann@example.com, code 123456.");
  });

  it("reads nested fields and renders missing ones empty, as GoTrue does for missing keys", () => {
    expect(text("[{{ .Data.name }}][{{ .Data.missing }}][{{ .Nope }}][{{ .Email.x }}]")).toBe("[Ann][][][]");
  });

  it("never reaches into the prototype", () => {
    expect(text("[{{ .constructor }}][{{ .Data.toString }}]")).toBe("[][]");
  });

  it("HTML-escapes substituted values in HTML mode only", () => {
    const evil = { Email: `"><script>alert('x')</script>&` };
    const template = parseTemplate('<a title="{{ .Email }}">{{ .Email }}</a>');
    const escaped = "&#34;&gt;&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt;&amp;";
    expect(renderTemplate(template, evil, { html: true })).toBe(`<a title="${escaped}">${escaped}</a>`);
    expect(renderTemplate(template, evil, { html: false })).toContain("<script>alert('x')</script>&");
    expect(html('<a href="{{ .ConfirmationURL }}">')).toBe(
      '<a href="https://auth.example.com/verify?token=abc&amp;type=signup">',
    );
  });

  it("supports if / else if / else / end with fields, not, eq and ne", () => {
    expect(text("{{ if .Token }}code {{ .Token }}{{ else }}link{{ end }}")).toBe("code 123456");
    expect(text("{{ if .Empty }}a{{ else if not .Empty }}b{{ else }}c{{ end }}")).toBe("b");
    expect(text('{{ if eq .Data.name "Ann" }}hello Ann{{ end }}')).toBe("hello Ann");
    expect(text("{{ if ne .Email `x` }}{{ if .Empty }}no{{ else }}nested{{ end }}{{ end }}")).toBe("nested");
  });

  it("honours trim markers and skips comments", () => {
    expect(text("a  \n {{- .Token -}} \n  b{{/* a note */}}!")).toBe("a123456b!");
  });

  it.each([
    ["a pipeline", "{{ .Email | urlquery }}"],
    ["range", "{{ range .Data }}x{{ end }}"],
    ["a function call", '{{ printf "%s" .Email }}'],
    ["an unclosed action", "Hi {{ .Email"],
    ["if without end", "{{ if .Token }}x"],
    ["end without if", "x{{ end }}"],
    ["else without if", "x{{ else }}y"],
    ["a second else", "{{ if .Token }}a{{ else }}b{{ else }}c{{ end }}"],
  ])("refuses %s", (_name, source) => {
    expect(() => parseTemplate(source)).toThrow(TemplateSyntaxError);
  });
});
