import { startPostmarkFake, startSesFake } from "@authsvc/adapters/testing";
import { describe, expect, it } from "vitest";
import { type Config, loadConfig } from "../../config.js";
import { memoryLogger } from "../../testing/memory-log.js";
import { mailerOf } from "../mail/mailer.js";

const PRODUCTION = {
  AUTHSVC_DB_DATABASE_URL: "postgres://authsvc@db.internal:5432/authsvc",
  AUTHSVC_SITE_URL: "https://app.example.com",
  AUTHSVC_API_EXTERNAL_URL: "https://auth.example.com",
  AUTHSVC_JWT_SECRET: "jwt-secret-for-tests-0123456789",
};

function load(vars: Record<string, string>) {
  return loadConfig({ ...PRODUCTION, ...vars }, { devJwtSecret: () => "dev-secret-generated-0123456789ab" });
}

function configOf(vars: Record<string, string>): Config {
  const result = load(vars);
  if (!result.ok) throw new Error(result.problems.join("\n"));
  return result.config;
}

describe("MAILER_PROVIDER", () => {
  it("sends through the selected API with the SMTP sender and the configured subjects, not SMTP", async () => {
    const fake = await startPostmarkFake("pm-token");
    try {
      const { logger, lines } = memoryLogger();
      const mailer = mailerOf(
        configOf({
          AUTHSVC_MAILER_PROVIDER: "postmark",
          AUTHSVC_MAILER_POSTMARK_SERVER_TOKEN: "pm-token",
          AUTHSVC_MAILER_POSTMARK_BASE_URL: fake.url,
          AUTHSVC_SMTP_ADMIN_EMAIL: "auth@example.com",
          AUTHSVC_SMTP_SENDER_NAME: "Example",
          AUTHSVC_MAILER_SUBJECTS_MAGIC_LINK: "Sign in to Example",
        }),
        logger,
      );
      await mailer.send({
        kind: "magic_link",
        to: "ann@example.com",
        confirmationUrl: "https://x/verify",
        token: "123456",
      });
      expect(fake.mails).toMatchObject([
        { from: "Example <auth@example.com>", to: "ann@example.com", subject: "Sign in to Example" },
      ]);
      expect(lines()).toEqual([]);
    } finally {
      await fake.close();
    }
  });

  it("sends the subject of the mail's language, as SMTP does", async () => {
    const fake = await startPostmarkFake("pm-token");
    try {
      const mailer = mailerOf(
        configOf({
          AUTHSVC_MAILER_PROVIDER: "postmark",
          AUTHSVC_MAILER_POSTMARK_SERVER_TOKEN: "pm-token",
          AUTHSVC_MAILER_POSTMARK_BASE_URL: fake.url,
          AUTHSVC_SMTP_ADMIN_EMAIL: "auth@example.com",
          AUTHSVC_MAILER_SUBJECTS_RECOVERY_FR: "Réinitialisez votre mot de passe",
        }),
        memoryLogger().logger,
      );
      const mail = { kind: "recovery", to: "zoe@example.com", confirmationUrl: "https://x/verify" } as const;
      await mailer.send({ ...mail, locales: ["fr-FR"] });
      await mailer.send(mail);
      expect(fake.mails.map((sent) => sent.subject)).toEqual([
        "Réinitialisez votre mot de passe",
        "Reset Your Password",
      ]);
    } finally {
      await fake.close();
    }
  });

  it("builds SES from its region and keys", async () => {
    const credentials = { region: "ap-south-1", accessKeyId: "AKIAEXAMPLE", secretAccessKey: "s3cr3t-key" };
    const fake = await startSesFake(credentials);
    try {
      const mailer = mailerOf(
        configOf({
          AUTHSVC_MAILER_PROVIDER: "SES",
          AUTHSVC_MAILER_SES_REGION: credentials.region,
          AUTHSVC_MAILER_SES_ACCESS_KEY_ID: credentials.accessKeyId,
          AUTHSVC_MAILER_SES_SECRET_ACCESS_KEY: credentials.secretAccessKey,
          AUTHSVC_MAILER_SES_BASE_URL: fake.url,
          AUTHSVC_SMTP_ADMIN_EMAIL: "auth@example.com",
        }),
        memoryLogger().logger,
      );
      await mailer.send({ kind: "recovery", to: "bo@example.com", confirmationUrl: "https://x/verify" });
      expect(fake.mails).toMatchObject([{ from: "auth@example.com", subject: "Reset Your Password" }]);
    } finally {
      await fake.close();
    }
  });

  it("requires the selected provider's credentials and the sender, and names them", () => {
    const result = load({ AUTHSVC_MAILER_PROVIDER: "mailgun", AUTHSVC_MAILER_RESEND_API_KEY: "unused" });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.problems).toEqual(
      expect.arrayContaining([
        "AUTHSVC_MAILER_MAILGUN_API_KEY: required when AUTHSVC_MAILER_PROVIDER is mailgun",
        "AUTHSVC_MAILER_MAILGUN_DOMAIN: required when AUTHSVC_MAILER_PROVIDER is mailgun",
        "AUTHSVC_SMTP_ADMIN_EMAIL: required when AUTHSVC_SMTP_HOST or AUTHSVC_MAILER_PROVIDER is set",
      ]),
    );
    expect(result.problems.join("\n")).not.toContain("RESEND");
  });

  it("refuses a provider it does not know", () => {
    const result = load({ AUTHSVC_MAILER_PROVIDER: "sparkpost", AUTHSVC_SMTP_ADMIN_EMAIL: "a@b.c" });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.problems).toEqual([
      'AUTHSVC_MAILER_PROVIDER: expected one of resend, postmark, ses, sendgrid, mailgun, got "sparkpost"',
    ]);
  });
});
