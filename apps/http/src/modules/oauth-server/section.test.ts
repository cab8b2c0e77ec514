import { describe, expect, it } from "vitest";
import { loadConfig } from "../../composition/config.js";

const production = {
  AUTHSVC_DB_DATABASE_URL: "postgres://authsvc:pw@db.internal:5432/authsvc",
  AUTHSVC_SITE_URL: "https://app.example.com",
  AUTHSVC_API_EXTERNAL_URL: "https://auth.example.com",
  AUTHSVC_JWT_SECRET: "jwt-secret-for-tests-0123456789",
};
const load = (extra: Record<string, string>) => {
  const result = loadConfig({ ...production, ...extra });
  if (!result.ok) throw new Error(result.problems.join("\n"));
  return result.config.oauthServer;
};

describe("OAuth server configuration", () => {
  it("takes the registration limit also under the name the reference derives (O_AUTH)", () => {
    expect(load({}).dynamicRegistrationPer5Min).toBe(10);
    expect(load({ AUTHSVC_RATE_LIMIT_OAUTH_DYNAMIC_CLIENT_REGISTER: "3" }).dynamicRegistrationPer5Min).toBe(
      3,
    );
    expect(load({ AUTHSVC_RATE_LIMIT_O_AUTH_DYNAMIC_CLIENT_REGISTER: "4" }).dynamicRegistrationPer5Min).toBe(
      4,
    );
  });

  it("settles the defaults: off, no registration, a 10-minute request, scope email, the hosted pages", () => {
    expect(load({})).toEqual({
      enabled: false,
      allowDynamicRegistration: false,
      authorizationPath: "",
      builtInConsentPage: true,
      authorizationTtlSeconds: 600,
      defaultScope: "email",
      dynamicRegistrationPer5Min: 10,
      allowedResources: [],
      parTtlSeconds: 60,
      requirePushedAuthorizationRequests: false,
      clientAssertionMaxLifetimeSeconds: 300,
      allowLoopbackForTests: false,
      clientMetadataDocuments: {
        enabled: false,
        allowedHosts: [],
        minCacheSeconds: 300,
        maxCacheSeconds: 86_400,
        allowLoopbackForTests: false,
      },
      clientCredentialsRole: "anon",
      refreshTokenNeedsOfflineAccess: false,
    });
  });

  it("refuses an admin role for client_credentials tokens: a machine never bypasses row-level security", () => {
    expect(() => load({ AUTHSVC_OAUTH_SERVER_CLIENT_CREDENTIALS_ROLE: "service_role" })).toThrow(
      /OAUTH_SERVER_CLIENT_CREDENTIALS_ROLE: must be a role that is not one of JWT_ADMIN_ROLES/,
    );
    expect(load({ AUTHSVC_OAUTH_SERVER_CLIENT_CREDENTIALS_ROLE: "machine" }).clientCredentialsRole).toBe(
      "machine",
    );
  });

  it("reads the allowed resources as a comma-separated list of URI patterns", () => {
    const value = " https://files.example/mcp , https://*.tools.example/** ";
    expect(load({ AUTHSVC_OAUTH_SERVER_ALLOWED_RESOURCES: value }).allowedResources).toEqual([
      "https://files.example/mcp",
      "https://*.tools.example/**",
    ]);
  });
});
