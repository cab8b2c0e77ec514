import { bearer, json } from "./fake-provider.js";
import type { ProviderCase } from "./provider-suite.js";

const UUID = "{6f2a4f7e-4242-4d1e-9c1a-2b5f0e6d7c8b}";

export const bitbucketCase: ProviderCase = {
  name: "bitbucket",
  defaultScopes: ["account", "email"],
  badCodeWords: "invalid_grant: The specified code is not valid.",
  behaviour: {
    authorizePath: "/site/oauth2/authorize",
    tokenPath: "/site/oauth2/access_token",
    clientAuth: "basic",
    badCode: () =>
      json(400, { error_description: "The specified code is not valid.", error: "invalid_grant" }),
    badClient: () =>
      json(400, {
        error: "invalid_client",
        error_description: "Client credentials missing; this request needs to be authenticated",
      }),
    tokenAnswer: async (token) => bearer(token, { scopes: "account email", state: "authorization_code" }),
    resources: {
      "GET /2.0/user": (p) =>
        json(200, {
          type: "user",
          uuid: UUID,
          username: p.login,
          display_name: `${p.firstName} ${p.lastName}`,
          links: { avatar: { href: p.avatarUrl } },
        }),
      "GET /2.0/user/emails": (p) =>
        json(200, {
          pagelen: 10,
          values: [{ type: "email", email: p.email, is_primary: true, is_confirmed: p.emailVerified }],
          page: 1,
          size: 1,
        }),
    },
    unauthorized: () => json(401, { type: "error", error: { message: "Access token expired." } }),
  },
  expected: (fake) => ({
    subject: UUID,
    emails: [{ email: "ada@example.com", verified: true, primary: true }],
    identityData: {
      iss: `${fake.url}/2.0`,
      sub: UUID,
      name: "Ada Lovelace",
      picture: "https://cdn.example.com/ada.png",
      avatar_url: "https://cdn.example.com/ada.png",
      full_name: "Ada Lovelace",
      email: "ada@example.com",
      email_verified: true,
      phone_verified: false,
      provider_id: UUID,
    },
  }),
};
