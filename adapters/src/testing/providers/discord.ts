import { bearer, json } from "./fake-provider.js";
import type { ProviderCase } from "./provider-suite.js";

export const discordCase: ProviderCase = {
  name: "discord",
  defaultScopes: ["email", "identify"],
  badCodeWords: 'invalid_grant: Invalid "code" in request.',
  behaviour: {
    authorizePath: "/api/oauth2/authorize",
    tokenPath: "/api/oauth2/token",
    clientAuth: "post",
    badCode: () => json(400, { error: "invalid_grant", error_description: 'Invalid "code" in request.' }),
    badClient: () => json(401, { error: "invalid_client" }),
    tokenAnswer: async (token) => bearer(token, { token_type: "Bearer", scope: "email identify" }),
    resources: {
      "GET /api/users/@me": (p) =>
        json(200, {
          id: p.id,
          username: p.login,
          discriminator: "0",
          global_name: `${p.firstName} ${p.lastName}`,
          avatar: "a1b2c3d4",
          email: p.email,
          verified: p.emailVerified,
        }),
    },
    unauthorized: () => json(401, { message: "401: Unauthorized", code: 0 }),
  },
  expected: (fake) => ({
    subject: "4242",
    emails: [{ email: "ada@example.com", verified: true, primary: true }],
    identityData: {
      iss: `${fake.url}/api`,
      sub: "4242",
      name: "ada#0",
      picture: "https://cdn.discordapp.com/avatars/4242/a1b2c3d4.png",
      custom_claims: { global_name: "Ada Lovelace" },
      avatar_url: "https://cdn.discordapp.com/avatars/4242/a1b2c3d4.png",
      full_name: "ada",
      email: "ada@example.com",
      email_verified: true,
      phone_verified: false,
      provider_id: "4242",
    },
  }),
};
