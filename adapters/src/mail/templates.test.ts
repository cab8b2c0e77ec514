import { blankUser } from "@authsvc/core/accounts";
import type { Mail, MailKind } from "@authsvc/core/messaging";
import { describe, expect, it } from "vitest";
import { parseTemplate, renderTemplate } from "./go-template.js";
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
      OldEmail: "",
      Phone: "",
      OldPhone: "",
      Provider: "",
      FactorType: "",
    });
  });

  it("offers the user's metadata as Data: strings, numbers and booleans, nested objects; never a prototype", () => {
    const user = blankUser({
      id: "00000000-0000-4000-8000-000000000001",
      aud: "authenticated",
      role: "authenticated",
      createdAt: new Date(0),
      userMetadata: JSON.parse(
        '{"locale":"fr","age":42,"vip":true,"none":null,"list":[1],"address":{"city":"Lyon"},"__proto__":{"x":"y"}}',
      ),
    });
    const data = templateData({ kind: "password_changed_notification", to: "ann@example.com", user }, SITE);
    expect({ ...(data.Data as object) }).toEqual({
      locale: "fr",
      age: "42",
      vip: "true",
      address: { city: "Lyon" },
      ["__proto__"]: { x: "y" },
    });
    const template = parseTemplate(
      "{{ .Data.locale }} {{ .Data.address.city }} {{ .Data.none }}|{{ .Data.x }}",
    );
    expect(renderTemplate(template, data, { html: false })).toBe("fr Lyon |");
  });

  it("takes Email from the mail's current address when it goes to the new one", () => {
    const toNew = { kind: "email_change", to: "new@example.com", newEmail: "new@example.com" } as const;
    expect(templateData({ ...toNew, email: "old@example.com" }, SITE).Email).toBe("old@example.com");
    // No current address (an anonymous user adding one): there is no old address to state.
    expect(templateData(toNew, SITE).Email).toBe("");
  });
});

describe("default templates", () => {
  it("each notification says what changed, with the reference's variables, and carries no link or code", () => {
    const mail = (kind: MailKind, extra: Partial<Mail>) =>
      renderTemplate(
        DEFAULT_HTML_TEMPLATES[kind],
        templateData({ kind, to: "ann@example.com", email: "ann@example.com", ...extra }, SITE),
        { html: true },
      );
    expect(mail("password_changed_notification", {})).toContain(
      "The password for your account was recently changed.",
    );
    expect(
      mail("email_changed_notification", { email: "new@example.com", oldEmail: "ann@example.com" }),
    ).toContain("changed from ann@example.com to new@example.com.");
    expect(mail("phone_changed_notification", { phone: "15550002", oldPhone: "15550001" })).toContain(
      "changed from 15550001 to 15550002.",
    );
    expect(mail("identity_linked_notification", { provider: "github" })).toContain(
      "Your github account was linked as a new sign-in method for ann@example.com.",
    );
    expect(mail("identity_unlinked_notification", { provider: "github" })).toContain(
      "Your github account was removed as a sign-in method for ann@example.com.",
    );
    expect(mail("mfa_factor_enrolled_notification", { factorType: "totp" })).toContain(
      "Sign-in verification method totp was added to your account.",
    );
    const removed = mail("mfa_factor_unenrolled_notification", { factorType: "phone" });
    expect(removed).toContain("Sign-in verification method phone was removed from your account.");
    expect(removed).not.toMatch(/href|code/i);
  });

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
