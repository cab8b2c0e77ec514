import { bearer, json } from "./fake-provider.js";
import type { ProviderCase } from "./provider-suite.js";

const SUB = "f3b2a1c0-4242-4d9e-8f8a-2b5f0e6d7c8b";

/** A Keycloak realm at `<origin>/realms/main`, with its OpenID Connect endpoints. */
export const keycloakCase: ProviderCase = {
  name: "keycloak",
  defaultScopes: ["profile", "email"],
  badCodeWords: "invalid_grant: Code not valid",
  behaviour: {
    basePath: "/realms/main",
    authorizePath: "/realms/main/protocol/openid-connect/auth",
    tokenPath: "/realms/main/protocol/openid-connect/token",
    clientAuth: "post",
    badCode: () => json(400, { error: "invalid_grant", error_description: "Code not valid" }),
    badClient: () =>
      json(401, {
        error: "unauthorized_client",
        error_description: "Invalid client or Invalid client credentials",
      }),
    tokenAnswer: async (token) =>
      bearer(token, {
        token_type: "Bearer",
        scope: "profile email",
        session_state: "5c1e0a3b",
        "not-before-policy": 0,
      }),
    resources: {
      "GET /realms/main/protocol/openid-connect/userinfo": (p) =>
        json(200, {
          sub: SUB,
          email_verified: p.emailVerified,
          name: `${p.firstName} ${p.lastName}`,
          preferred_username: p.login,
          given_name: p.firstName,
          family_name: p.lastName,
          email: p.email,
        }),
    },
    unauthorized: () => json(401, { error: "invalid_token", error_description: "Token verification failed" }),
    idTokens: { jwksPath: "/protocol/openid-connect/certs", issuer: (base) => base },
  },
  expected: (fake) => ({
    subject: SUB,
    emails: [{ email: "ada@example.com", verified: true, primary: true }],
    identityData: {
      iss: fake.url,
      sub: SUB,
      name: "Ada Lovelace",
      email: "ada@example.com",
      custom_claims: { preferred_username: "ada", given_name: "Ada", family_name: "Lovelace" },
      full_name: "Ada Lovelace",
      email_verified: true,
      phone_verified: false,
      provider_id: SUB,
    },
  }),
};
