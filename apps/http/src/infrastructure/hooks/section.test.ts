import { describe, expect, it } from "vitest";
import { loadConfig } from "../../composition/config.js";

const production = {
  AUTHSVC_DB_DATABASE_URL: "postgres://authsvc:pw@db.internal:5432/authsvc",
  AUTHSVC_SITE_URL: "https://app.example.com",
  AUTHSVC_API_EXTERNAL_URL: "https://auth.example.com",
  AUTHSVC_JWT_SECRET: "jwt-secret-for-tests-0123456789",
};
const load = (extra: Record<string, string>) => loadConfig({ ...production, ...extra });
const SECRET = `v1,whsec_${"QUJD".repeat(10)}`;

describe("hooks configuration", () => {
  it("settles the enabled hooks with their URI and secrets; a disabled hook is absent", () => {
    const result = load({
      AUTHSVC_HOOK_CUSTOM_ACCESS_TOKEN_ENABLED: "true",
      AUTHSVC_HOOK_CUSTOM_ACCESS_TOKEN_URI: "pg-functions://postgres/public/custom_access_token",
      AUTHSVC_HOOK_SEND_EMAIL_ENABLED: "true",
      AUTHSVC_HOOK_SEND_EMAIL_URI: "https://hooks.example.com/send-email",
      AUTHSVC_HOOK_SEND_EMAIL_SECRETS: `${SECRET}|${SECRET}`,
      AUTHSVC_HOOK_SEND_SMS_URI: "https://hooks.example.com/send-sms",
    });
    if (!result.ok) throw new Error(result.problems.join("\n"));
    expect(result.config.hooks).toEqual({
      custom_access_token: { uri: "pg-functions://postgres/public/custom_access_token", secrets: [] },
      send_email: { uri: "https://hooks.example.com/send-email", secrets: [SECRET, SECRET] },
    });
  });

  it("refuses an enabled hook without URI, plain http to another host, a bad secret, a misspelt hook", () => {
    const result = load({
      AUTHSVC_HOOK_BEFORE_USER_CREATED_ENABLED: "true",
      AUTHSVC_HOOK_SEND_SMS_ENABLED: "true",
      AUTHSVC_HOOK_SEND_SMS_URI: "http://hooks.example.com/sms",
      AUTHSVC_HOOK_SEND_EMAIL_SECRETS: "whsec_nope",
      AUTHSVC_HOOK_CUSTOM_ACCESS_TOKENS_ENABLED: "true",
    });
    expect(result.ok).toBe(false);
    const problems = result.ok ? [] : result.problems.join("\n");
    expect(problems).toContain("AUTHSVC_HOOK_BEFORE_USER_CREATED_URI");
    expect(problems).toContain(
      "http:// is allowed to localhost, 127.0.0.1, ::1 and host.docker.internal only",
    );
    expect(problems).toContain("AUTHSVC_HOOK_SEND_EMAIL_SECRETS");
    expect(problems).toContain("AUTHSVC_HOOK_CUSTOM_ACCESS_TOKENS_ENABLED: unknown variable");
  });
});
