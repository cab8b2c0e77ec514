import { bearer, json } from "./fake-provider.js";
import type { ProviderCase } from "./provider-suite.js";

const USER_ID = "KXo0D8rbYRqqDtxQ1mzq0B9";

/** Fly.io (Doorkeeper): the person is the access token's description at `/oauth/token/info`. */
export const flyCase: ProviderCase = {
  name: "fly",
  defaultScopes: ["read"],
  badCodeWords:
    "invalid_grant: The provided authorization grant is invalid, expired, revoked, does not match the redirection URI used in the authorization request, or was issued to another client.",
  behaviour: {
    authorizePath: "/oauth/authorize",
    tokenPath: "/oauth/token",
    clientAuth: "basic",
    badCode: () =>
      json(400, {
        error: "invalid_grant",
        error_description:
          "The provided authorization grant is invalid, expired, revoked, does not match the redirection URI used in the authorization request, or was issued to another client.",
      }),
    badClient: () =>
      json(401, {
        error: "invalid_client",
        error_description:
          "Client authentication failed due to unknown client, no client authentication included, or unsupported authentication method.",
      }),
    tokenAnswer: async (token) =>
      bearer(token, { token_type: "Bearer", scope: "read", created_at: 1767225600 }),
    resources: {
      "GET /oauth/token/info": (p) =>
        json(200, {
          resource_owner_id: "ro-9",
          scope: ["read"],
          expires_in: 7199,
          application: { uid: "client-1234" },
          created_at: 1767225600,
          user_id: USER_ID,
          user_name: `${p.firstName} ${p.lastName}`,
          email: p.email,
          organizations: [{ id: "org-1", role: "admin" }],
        }),
    },
    unauthorized: () =>
      json(401, { error: "invalid_token", error_description: "The access token is invalid" }),
  },
  expected: (fake) => ({
    subject: USER_ID,
    emails: [{ email: "ada@example.com", verified: true, primary: true }],
    identityData: {
      iss: fake.url,
      sub: USER_ID,
      full_name: "Ada Lovelace",
      custom_claims: {
        resource_owner_id: "ro-9",
        organizations: [{ id: "org-1", role: "admin" }],
        application: { uid: "client-1234" },
        scope: ["read"],
        created_at: 1767225600,
      },
      email: "ada@example.com",
      email_verified: true,
      phone_verified: false,
      provider_id: USER_ID,
    },
  }),
};
