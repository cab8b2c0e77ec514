import { startSmtpSink, startTemplateServer } from "@authsvc/adapters/testing";
import { AuthError } from "@authsvc/core/kernel";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Config, loadConfig } from "../../config.js";
import { memoryLogger } from "../../testing/memory-log.js";
import { mailerOf } from "./mailer.js";

const PRODUCTION = {
  AUTHSVC_DB_DATABASE_URL: "postgres://authsvc@db.internal:5432/authsvc",
  AUTHSVC_SITE_URL: "https://app.example.com",
  AUTHSVC_API_EXTERNAL_URL: "https://auth.example.com",
  AUTHSVC_JWT_SECRET: "jwt-secret-for-tests-0123456789",
};
const LINK = "https://auth.example.com/verify?token=hash-abc&type=magiclink";

function configOf(vars: Record<string, string | undefined>): Config {
  const result = loadConfig(vars, { devJwtSecret: () => "dev-secret-generated-0123456789ab" });
  if (!result.ok) throw new Error(result.problems.join("\n"));
  return result.config;
}

let sink: Awaited<ReturnType<typeof startSmtpSink>>;
/** A server on PostgreSQL mailing through the test's SMTP sink, with `vars` besides. */
const smtpConfig = (vars: Record<string, string>) =>
  configOf({
    ...PRODUCTION,
    AUTHSVC_SMTP_HOST: sink.host,
    AUTHSVC_SMTP_PORT: String(sink.port),
    AUTHSVC_SMTP_ADMIN_EMAIL: "auth@example.com",
    ...vars,
  });
let templates: Awaited<ReturnType<typeof startTemplateServer>>;
beforeAll(async () => {
  sink = await startSmtpSink();
  templates = await startTemplateServer({
    "/magic.html": { status: 200, body: "<p>custom {{ .Token }}</p>" },
    "/gone.html": { status: 404, body: "no" },
  });
});
afterAll(async () => {
  await sink?.close();
  await templates?.close();
});

describe("mailerOf", () => {
  it("sends over SMTP when SMTP_HOST is set, with the configured sender, subjects and templates", async () => {
    const { logger } = memoryLogger();
    const mailer = mailerOf(
      configOf({
        ...PRODUCTION,
        AUTHSVC_SMTP_HOST: sink.host,
        AUTHSVC_SMTP_PORT: String(sink.port),
        AUTHSVC_SMTP_ADMIN_EMAIL: "auth@example.com",
        AUTHSVC_SMTP_SENDER_NAME: "Example",
        AUTHSVC_MAILER_SUBJECTS_MAGIC_LINK: "Sign in to Example",
        AUTHSVC_MAILER_TEMPLATES_MAGIC_LINK: templates.url("/magic.html"),
      }),
      logger,
    );
    await mailer.send({ kind: "magic_link", to: "ann@example.com", confirmationUrl: LINK, token: "123456" });
    const mail = await sink.next("ann@example.com");
    expect(mail.headers.from).toBe("Example <auth@example.com>");
    expect(mail.subject).toBe("Sign in to Example");
    expect(mail.html).toBe("<p>custom 123456</p>");
    // Kinds without overrides keep the default subjects.
    await mailer.send({
      kind: "email_change",
      to: "bob@example.com",
      newEmail: "new@example.com",
      confirmationUrl: LINK,
    });
    expect((await sink.next("bob@example.com")).subject).toBe("Confirm Email Change");
  });

  it("logs a template that cannot be fetched as a warning, without the link or code", async () => {
    const { logger, lines } = memoryLogger();
    const mailer = mailerOf(
      smtpConfig({ AUTHSVC_MAILER_TEMPLATES_RECOVERY: templates.url("/gone.html") }),
      logger,
    );
    await mailer.send({ kind: "recovery", to: "carl@example.com", confirmationUrl: LINK, token: "654321" });
    const mail = await sink.next("carl@example.com");
    expect(mail.headers.from).toBe("auth@example.com");
    expect(mail.html).toContain("<h2>Reset your password</h2>");
    expect(lines()).toEqual([
      expect.objectContaining({ level: "warn", template_url: templates.url("/gone.html"), status: 404 }),
    ]);
    expect(JSON.stringify(lines())).not.toMatch(/654321|hash-abc/);
  });

  it("with SMTP_REQUIRE_TLS, sends nothing to a server without STARTTLS and logs why", async () => {
    const { logger, lines } = memoryLogger();
    const mailer = mailerOf(smtpConfig({ AUTHSVC_SMTP_REQUIRE_TLS: "true" }), logger);
    const sent = mailer.send({
      kind: "recovery",
      to: "tls@example.com",
      confirmationUrl: LINK,
      token: "778899",
    });
    await expect(sent).rejects.toMatchObject({ code: "email_send_failed" });
    expect(lines()).toEqual([
      expect.objectContaining({
        level: "warn",
        smtp_error_code: "ETLS",
        msg: expect.stringMatching(/^mail not sent: /),
      }),
    ]);
    expect(JSON.stringify(lines())).not.toMatch(/778899|tls@example.com/);
    expect(sink.mails.some((m) => m.to.includes("tls@example.com"))).toBe(false);
  });

  it("in embedded mode without SMTP_HOST, writes each mail's link and code to the log", async () => {
    const { logger, lines } = memoryLogger();
    await mailerOf(configOf({}), logger).send({
      kind: "confirmation",
      to: "dev@example.com",
      confirmationUrl: LINK,
      token: "112233",
    });
    expect(lines()).toEqual([
      expect.objectContaining({
        mail_kind: "confirmation",
        mail_to: "dev@example.com",
        mail_link: LINK,
        mail_code: "112233",
      }),
    ]);
  });

  it("otherwise fails every mail with email_send_failed", async () => {
    const { logger } = memoryLogger();
    const sent = mailerOf(configOf(PRODUCTION), logger).send({
      kind: "invite",
      to: "x@example.com",
      confirmationUrl: LINK,
    });
    await expect(sent).rejects.toBeInstanceOf(AuthError);
    await expect(sent).rejects.toMatchObject({
      failure: "emailNotConfigured",
      code: "email_send_failed",
      message: "Error sending email: no SMTP_HOST is configured",
    });
  });
});
