import { describe, expect, it } from "vitest";
import { renderTemplate } from "./go-template.js";
import { DEFAULT_HTML_TEMPLATES, TEXT_TEMPLATES, templateData } from "./templates.js";

const SITE = "https://app.example.com";
const LINK =
  "https://auth.example.com/verify?token=hash123&type=magiclink&redirect_to=https%3A%2F%2Fapp.example.com%2Fwelcome";

describe("templateData", () => {
  it("offers GoTrue's variables, the token hash and redirect read from the link", () => {
    const data = templateData(
      { kind: "magic_link", to: "ann@example.com", confirmationUrl: LINK, token: "123456" },
      SITE,
    );
    expect(data).toEqual({
      SiteURL: SITE,
      Email: "ann@example.com",
      NewEmail: "",
      ConfirmationURL: LINK,
      Token: "123456",
      SendingTo: "ann@example.com",
      TokenHash: "hash123",
      RedirectTo: "https://app.example.com/welcome",
      Data: {},
    });
  });

  it("takes Email from the mail's current address when it goes to the new one", () => {
    const toNew = { kind: "email_change", to: "new@example.com", newEmail: "new@example.com" } as const;
    expect(templateData({ ...toNew, email: "old@example.com" }, SITE).Email).toBe("old@example.com");
    // No current address (an anonymous user adding one): there is no old address to state.
    expect(templateData(toNew, SITE).Email).toBe("");
  });
});

describe("default templates", () => {
  it("the reauthentication mail carries the code and no link", () => {
    const data = templateData({ kind: "reauthentication", to: "ann@example.com", token: "654321" }, SITE);
    const html = renderTemplate(DEFAULT_HTML_TEMPLATES.reauthentication, data, { html: true });
    expect(html).toContain("<h2>Confirm reauthentication</h2>");
    expect(html).toContain("654321");
    expect(html).not.toContain("<a ");
    expect(renderTemplate(TEXT_TEMPLATES.reauthentication, data, { html: false })).toContain(
      "Enter the code: 654321",
    );
  });

  it("the email change mail without a current address names only the new one", () => {
    const data = templateData(
      { kind: "email_change", to: "new@example.com", newEmail: "new@example.com", confirmationUrl: LINK },
      SITE,
    );
    const text = renderTemplate(TEXT_TEMPLATES.email_change, data, { html: false });
    expect(text).toContain("the change of your email address to new@example.com:");
    expect(text).not.toContain("from");
  });

  it("omits the code line when the mail has no code", () => {
    const data = templateData({ kind: "recovery", to: "ann@example.com", confirmationUrl: LINK }, SITE);
    expect(renderTemplate(DEFAULT_HTML_TEMPLATES.recovery, data, { html: true })).not.toContain("code");
    expect(renderTemplate(TEXT_TEMPLATES.recovery, data, { html: false })).toBe(
      `Reset your password\n\nFollow this link to reset the password of ann@example.com:\n${LINK}\n`,
    );
  });
});
