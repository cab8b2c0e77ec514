import { describe, expect, it } from "vitest";
import { loadConfig } from "../../config.js";

const PRODUCTION = {
  AUTHSVC_DB_DATABASE_URL: "postgres://authsvc@db.internal:5432/authsvc",
  AUTHSVC_SITE_URL: "https://app.example.com",
  AUTHSVC_API_EXTERNAL_URL: "https://auth.example.com",
  AUTHSVC_JWT_SECRET: "jwt-secret-for-tests-0123456789",
};
const load = (vars: Record<string, string>) =>
  loadConfig({ ...PRODUCTION, ...vars }, { devJwtSecret: () => "dev-secret-generated-0123456789ab" });

describe("localized subjects and templates (MAILER_SUBJECTS_<KIND>_<LOCALE>, MAILER_TEMPLATES_…)", () => {
  it("are read by kind and lowercase locale, a region joined with a hyphen", () => {
    const result = load({
      AUTHSVC_MAILER_SUBJECTS_MAGIC_LINK_FR: "Votre lien",
      AUTHSVC_MAILER_SUBJECTS_EMAIL_CHANGE_PT_BR: "Confirme a troca",
      AUTHSVC_MAILER_SUBJECTS_EMAIL_CHANGED_NOTIFICATION_DE: "E-Mail geändert",
      AUTHSVC_MAILER_TEMPLATES_RECOVERY_FR: "https://templates.example.com/fr/recovery.html",
    });
    if (!result.ok) throw new Error(result.problems.join("\n"));
    expect(result.config.mailer.localized).toEqual({
      subjects: {
        magic_link: { fr: "Votre lien" },
        email_change: { "pt-br": "Confirme a troca" },
        email_changed_notification: { de: "E-Mail geändert" },
      },
      templates: { recovery: { fr: "https://templates.example.com/fr/recovery.html" } },
    });
    // The kinds' own subjects stay as they were.
    expect(result.config.mailer.subjects.magic_link).toBe("Your Magic Link");
  });

  it("refuse a template that is not a URL, and a name that is neither a kind nor a kind and a locale", () => {
    const result = load({
      AUTHSVC_MAILER_TEMPLATES_RECOVERY_FR: "recovery.fr.html",
      AUTHSVC_MAILER_SUBJECTS_MAGICLINK_FR: "Votre lien",
      AUTHSVC_MAILER_SUBJECTS_RECOVERY_FRENCH_FROM_FRANCE: "Réinitialisation",
    });
    expect(result.ok).toBe(false);
    const problems = result.ok ? [] : result.problems;
    expect(problems.map((p) => p.split(":")[0])).toEqual([
      "AUTHSVC_MAILER_TEMPLATES_RECOVERY_FR",
      "AUTHSVC_MAILER_SUBJECTS_MAGICLINK_FR",
      "AUTHSVC_MAILER_SUBJECTS_RECOVERY_FRENCH_FROM_FRANCE",
    ]);
  });
});
