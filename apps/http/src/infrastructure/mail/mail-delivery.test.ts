import { describe, expect, it } from "vitest";
import { type Config, loadConfig } from "../../config.js";
import { mailDeliveryWarning, undeliverableMailFeatures } from "./mail-delivery.js";

const PRODUCTION = {
  AUTHSVC_DB_DATABASE_URL: "postgres://authsvc@db.internal:5432/authsvc",
  AUTHSVC_SITE_URL: "https://app.example.com",
  AUTHSVC_API_EXTERNAL_URL: "https://auth.example.com",
  AUTHSVC_JWT_SECRET: "jwt-secret-for-tests-0123456789",
};

function configOf(vars: Record<string, string | undefined>): Config {
  const result = loadConfig(vars, { devJwtSecret: () => "dev-secret-generated-0123456789ab" });
  if (!result.ok) throw new Error(result.problems.join("\n"));
  return result.config;
}

describe("undeliverable mail", () => {
  it("names every mail feature that is on when neither SMTP nor a send-email hook is set", () => {
    expect(undeliverableMailFeatures(configOf(PRODUCTION))).toEqual([
      "sign-up confirmations",
      "magic links and email codes",
      "password recovery",
      "email changes",
      "invitations",
    ]);
    expect(mailDeliveryWarning(configOf(PRODUCTION))).toBe(
      "no mail can be sent (none of AUTHSVC_SMTP_HOST, AUTHSVC_MAILER_PROVIDER, AUTHSVC_HOOK_SEND_EMAIL_ENABLED is set): sign-up confirmations, magic links and email codes, password recovery, email changes, invitations will fail; a sign-up that needs a confirmation is answered, then removed when its mail fails",
    );
  });

  it("leaves out what autoconfirm and a disabled email provider turn off", () => {
    const config = configOf({
      ...PRODUCTION,
      AUTHSVC_MAILER_AUTOCONFIRM: "true",
      AUTHSVC_EXTERNAL_EMAIL_ENABLED: "false",
    });
    expect(undeliverableMailFeatures(config)).toEqual(["invitations"]);
    expect(mailDeliveryWarning(config)).not.toContain("sign-up");
  });

  it("is silent with an SMTP host, a mail API, a send-email hook, and in embedded mode (mail goes to the log)", () => {
    const smtp = configOf({
      ...PRODUCTION,
      AUTHSVC_SMTP_HOST: "mail.internal",
      AUTHSVC_SMTP_ADMIN_EMAIL: "a@b.c",
    });
    const hook = configOf({
      ...PRODUCTION,
      AUTHSVC_HOOK_SEND_EMAIL_ENABLED: "true",
      AUTHSVC_HOOK_SEND_EMAIL_URI: "https://hooks.example.com/send-email",
      AUTHSVC_HOOK_SEND_EMAIL_SECRETS: "v1,whsec_c2VjcmV0LXNlY3JldC1zZWNyZXQtc2VjcmV0",
    });
    const api = configOf({
      ...PRODUCTION,
      AUTHSVC_MAILER_PROVIDER: "resend",
      AUTHSVC_MAILER_RESEND_API_KEY: "re_key",
      AUTHSVC_SMTP_ADMIN_EMAIL: "a@b.c",
    });
    const embedded = configOf({ AUTHSVC_DATA_DIR: "/tmp/authsvc-mail-delivery-test" });
    for (const config of [smtp, api, hook, embedded]) {
      expect(undeliverableMailFeatures(config)).toEqual([]);
      expect(mailDeliveryWarning(config)).toBeUndefined();
    }
  });
});
