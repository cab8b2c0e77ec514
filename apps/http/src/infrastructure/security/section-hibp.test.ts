import { describe, expect, it } from "vitest";
import { loadConfig } from "../../composition/config.js";

const production = {
  AUTHSVC_DB_DATABASE_URL: "postgres://authsvc:pw@db.internal:5432/authsvc",
  AUTHSVC_SITE_URL: "https://app.example.com",
  AUTHSVC_API_EXTERNAL_URL: "https://auth.example.com",
  AUTHSVC_JWT_SECRET: "jwt-secret-for-tests-0123456789",
};
const load = (extra: Record<string, string>) => loadConfig({ ...production, ...extra });

describe("leaked-password check (PASSWORD_HIBP_*)", () => {
  it("is off by default, pointed at the public range API", () => {
    const result = load({});
    if (!result.ok) throw new Error(result.problems.join("\n"));
    expect(result.config.password.hibp).toEqual({
      enabled: false,
      failClosed: false,
      userAgent: "authsvc",
      url: "https://api.pwnedpasswords.com",
    });
  });

  it("reads its switches, user agent and URL, and refuses a URL that is not http(s)", () => {
    const result = load({
      AUTHSVC_PASSWORD_HIBP_ENABLED: "true",
      AUTHSVC_PASSWORD_HIBP_FAIL_CLOSED: "true",
      AUTHSVC_PASSWORD_HIBP_USER_AGENT: "example-auth",
      AUTHSVC_PASSWORD_HIBP_URL: "http://127.0.0.1:8080",
    });
    if (!result.ok) throw new Error(result.problems.join("\n"));
    expect(result.config.password.hibp).toEqual({
      enabled: true,
      failClosed: true,
      userAgent: "example-auth",
      url: "http://127.0.0.1:8080",
    });
    const bad = load({ AUTHSVC_PASSWORD_HIBP_URL: "ftp://example.com" });
    expect(bad.ok).toBe(false);
    if (!bad.ok) expect(bad.problems.join("\n")).toContain("AUTHSVC_PASSWORD_HIBP_URL");
  });
});
