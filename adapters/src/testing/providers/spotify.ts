import { bearer, json } from "./fake-provider.js";
import type { ProviderCase } from "./provider-suite.js";

/** Spotify; with a base URL the reference puts the Web API at `<URL>/me`. */
export const spotifyCase: ProviderCase = {
  name: "spotify",
  defaultScopes: ["user-read-email"],
  badCodeWords: "invalid_grant: Invalid authorization code",
  behaviour: {
    authorizePath: "/authorize",
    tokenPath: "/api/token",
    clientAuth: "basic",
    badCode: () => json(400, { error: "invalid_grant", error_description: "Invalid authorization code" }),
    badClient: () => json(400, { error: "invalid_client", error_description: "Invalid client secret" }),
    tokenAnswer: async (token) => bearer(token, { token_type: "Bearer", scope: "user-read-email" }),
    resources: {
      "GET /me": (p) =>
        json(200, {
          id: p.login,
          display_name: `${p.firstName} ${p.lastName}`,
          email: p.email,
          images: [
            { url: "https://i.scdn.co/image/ada-64", height: 64, width: 64 },
            { url: "https://i.scdn.co/image/ada-300", height: 300, width: 300 },
          ],
          uri: `spotify:user:${p.login}`,
        }),
    },
    unauthorized: () => json(401, { error: { status: 401, message: "Invalid access token" } }),
  },
  expected: (fake) => ({
    subject: "ada",
    emails: [{ email: "ada@example.com", verified: false, primary: true }],
    identityData: {
      iss: fake.url,
      sub: "ada",
      name: "Ada Lovelace",
      picture: "https://i.scdn.co/image/ada-300",
      avatar_url: "https://i.scdn.co/image/ada-300",
      full_name: "Ada Lovelace",
      email: "ada@example.com",
      email_verified: false,
      phone_verified: false,
      provider_id: "ada",
    },
  }),
};
