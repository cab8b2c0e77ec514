import { bearer, json } from "./fake-provider.js";
import type { ProviderCase } from "./provider-suite.js";

const SUB = "001234.5f3b2a1c0d9e4f8a.0421";

/** Sign in with Apple: form_post back to `/callback`, the person only in the ID token. */
export const appleCase: ProviderCase = {
  name: "apple",
  defaultScopes: ["email", "name"],
  authorizationParams: { response_mode: "form_post" },
  signsInWithIdToken: true,
  badCodeWords: "invalid_grant: The code has expired or has been revoked.",
  behaviour: {
    authorizePath: "/auth/authorize",
    tokenPath: "/auth/token",
    clientAuth: "post",
    badCode: () =>
      json(400, { error: "invalid_grant", error_description: "The code has expired or has been revoked." }),
    badClient: () => json(400, { error: "invalid_client" }),
    tokenAnswer: async (token, fake) =>
      bearer(token, {
        token_type: "Bearer",
        id_token: await fake.signIdToken({
          sub: SUB,
          email: "x7k2@privaterelay.appleid.com",
          email_verified: "true",
          is_private_email: "true",
          auth_time: 1700000000,
          nonce_supported: true,
        }),
      }),
    resources: {},
    unauthorized: () => json(401, { error: "invalid_token" }),
    idTokens: { jwksPath: "/auth/keys", issuer: (base) => base },
  },
  expected: (fake) => ({
    subject: SUB,
    emails: [{ email: "x7k2@privaterelay.appleid.com", verified: true, primary: true }],
    identityData: {
      iss: fake.url,
      sub: SUB,
      custom_claims: { is_private_email: true, auth_time: 1700000000 },
      email: "x7k2@privaterelay.appleid.com",
      email_verified: true,
      phone_verified: false,
      provider_id: SUB,
    },
  }),
};
