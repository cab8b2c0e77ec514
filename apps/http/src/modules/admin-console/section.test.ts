import { describe, expect, it } from "vitest";
import { loadConfig } from "../../composition/config.js";

const production = {
  AUTHSVC_DB_DATABASE_URL: "postgres://authsvc:pw@db.internal:5432/authsvc",
  AUTHSVC_SITE_URL: "https://app.example.com",
  AUTHSVC_API_EXTERNAL_URL: "https://auth.example.com",
  AUTHSVC_JWT_SECRET: "jwt-secret-for-tests-0123456789",
};
const load = (vars: Record<string, string>) => {
  const result = loadConfig(vars, { devJwtSecret: () => "dev-jwt-secret-for-tests-0123456789" });
  if (!result.ok) throw new Error(result.problems.join("\n"));
  return result;
};

describe("admin console configuration", () => {
  it("is off outside embedded mode, on in it, unless set either way", () => {
    expect(load(production).config.adminConsole.enabled).toBe(false);
    expect(load({}).config.adminConsole.enabled).toBe(true);
    expect(load({ AUTHSVC_ADMIN_CONSOLE_ENABLED: "false" }).config.adminConsole.enabled).toBe(false);
    expect(load({ ...production, AUTHSVC_ADMIN_CONSOLE_ENABLED: "true" }).config.adminConsole.enabled).toBe(
      true,
    );
  });

  it("reads administrators by email (case folded) and by role, and a 15-minute idle timeout", () => {
    const { adminConsole } = load({
      ...production,
      AUTHSVC_ADMIN_CONSOLE_ADMINS: "Ops@Example.com, role:support_admin",
    }).config;
    expect(adminConsole).toEqual({
      enabled: false,
      adminEmails: ["ops@example.com"],
      adminRoles: ["support_admin"],
      idleTimeoutMs: 15 * 60_000,
      requireMfa: false,
    });
  });

  it("refuses an entry that is neither an address nor a role, and an idle timeout under a minute", () => {
    for (const vars of [
      { AUTHSVC_ADMIN_CONSOLE_ADMINS: "ops" },
      { AUTHSVC_ADMIN_CONSOLE_ADMINS: "role:" },
      { AUTHSVC_ADMIN_CONSOLE_IDLE_TIMEOUT: "30s" },
    ]) {
      const result = loadConfig({ ...production, ...vars });
      expect(result.ok, JSON.stringify(vars)).toBe(false);
    }
  });

  it("warns when switched on with nobody named", () => {
    const warned = (vars: Record<string, string>) =>
      load({ ...production, ...vars }).warnings.some((w) => w.includes("AUTHSVC_ADMIN_CONSOLE_ADMINS"));
    expect(warned({ AUTHSVC_ADMIN_CONSOLE_ENABLED: "true" })).toBe(true);
    expect(
      warned({ AUTHSVC_ADMIN_CONSOLE_ENABLED: "true", AUTHSVC_ADMIN_CONSOLE_ADMINS: "a@b.example" }),
    ).toBe(false);
    expect(warned({})).toBe(false);
  });
});
