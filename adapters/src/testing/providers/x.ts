import { bearer, json } from "./fake-provider.js";
import type { ProviderCase } from "./provider-suite.js";

const ID = "1480512345678901234";

/** X API v2 with OAuth 2.0: PKCE required, the person at `/2/users/me` inside `data`. */
export const xCase: ProviderCase = {
  name: "x",
  defaultScopes: ["users.email", "tweet.read", "users.read", "offline.access"],
  badCodeWords: "invalid_request: Value passed for the authorization code was invalid.",
  behaviour: {
    authorizePath: "/i/oauth2/authorize",
    tokenPath: "/2/oauth2/token",
    clientAuth: "basic",
    pkce: true,
    badCode: () =>
      json(400, {
        error: "invalid_request",
        error_description: "Value passed for the authorization code was invalid.",
      }),
    badClient: () =>
      json(401, { error: "unauthorized_client", error_description: "Missing valid authorization header" }),
    tokenAnswer: async (token) =>
      bearer(token, {
        token_type: "bearer",
        expires_in: 7200,
        scope: "users.email tweet.read users.read offline.access",
        refresh_token: "x-refresh-token",
      }),
    resources: {
      "GET /2/users/me": (p, req) =>
        req.query.get("user.fields")?.includes("confirmed_email")
          ? json(200, {
              data: {
                id: ID,
                name: `${p.firstName} ${p.lastName}`,
                username: p.login,
                confirmed_email: p.email,
                profile_image_url: p.avatarUrl,
                url: "https://ada.example.com",
                created_at: "2013-12-14T04:35:55.000Z",
              },
            })
          : json(200, { data: { id: ID, name: `${p.firstName} ${p.lastName}`, username: p.login } }),
    },
    unauthorized: () =>
      json(401, { title: "Unauthorized", type: "about:blank", status: 401, detail: "Unauthorized" }),
  },
  expected: (fake) => ({
    subject: ID,
    emails: [{ email: "ada@example.com", verified: true, primary: true }],
    identityData: {
      iss: fake.url,
      sub: ID,
      name: "Ada Lovelace",
      preferred_username: "ada",
      picture: "https://cdn.example.com/ada.png",
      profile: "https://x.com/ada",
      website: "https://ada.example.com",
      custom_claims: { created_at: "2013-12-14T04:35:55.000Z" },
      avatar_url: "https://cdn.example.com/ada.png",
      full_name: "Ada Lovelace",
      user_name: "ada",
      email: "ada@example.com",
      email_verified: true,
      phone_verified: false,
      provider_id: ID,
    },
  }),
};
