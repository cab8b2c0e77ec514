import { bearer, json } from "./fake-provider.js";
import type { ProviderCase } from "./provider-suite.js";

export const gitlabCase: ProviderCase = {
  name: "gitlab",
  defaultScopes: ["read_user"],
  badCodeWords: "invalid_grant: The provided authorization grant is invalid",
  behaviour: {
    authorizePath: "/oauth/authorize",
    tokenPath: "/oauth/token",
    clientAuth: "post",
    badCode: () =>
      json(400, {
        error: "invalid_grant",
        error_description:
          "The provided authorization grant is invalid, expired, revoked, does not match the redirection URI used in the authorization request, or was issued to another client.",
      }),
    badClient: () =>
      json(401, {
        error: "invalid_client",
        error_description: "Client authentication failed due to unknown client.",
      }),
    tokenAnswer: async (token) =>
      bearer(token, { token_type: "Bearer", scope: "read_user", created_at: 1700000000 }),
    resources: {
      "GET /api/v4/user": (p) =>
        json(200, {
          id: Number(p.id),
          username: p.login,
          name: `${p.firstName} ${p.lastName}`,
          avatar_url: p.avatarUrl,
          email: p.email,
          confirmed_at: p.emailVerified ? "2024-01-02T03:04:05.000Z" : null,
        }),
      "GET /api/v4/user/emails": () =>
        json(200, [{ id: 7, email: "ada@work.example.com", confirmed_at: null }]),
    },
    unauthorized: () => json(401, { message: "401 Unauthorized" }),
  },
  expected: (fake) => ({
    subject: "4242",
    emails: [
      { email: "ada@example.com", verified: true, primary: true },
      { email: "ada@work.example.com", verified: false, primary: false },
    ],
    identityData: {
      iss: fake.url,
      sub: "4242",
      name: "Ada Lovelace",
      picture: "https://cdn.example.com/ada.png",
      avatar_url: "https://cdn.example.com/ada.png",
      full_name: "Ada Lovelace",
      email: "ada@example.com",
      email_verified: true,
      phone_verified: false,
      provider_id: "4242",
    },
  }),
};
