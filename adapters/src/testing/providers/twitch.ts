import { json } from "./fake-provider.js";
import type { ProviderCase } from "./provider-suite.js";

/** Twitch: Helix wants the app's Client-Id header beside the user's token. */
export const twitchCase: ProviderCase = {
  name: "twitch",
  defaultScopes: ["user:read:email"],
  badCodeWords: "HTTP 400: Invalid authorization code",
  behaviour: {
    authorizePath: "/oauth2/authorize",
    tokenPath: "/oauth2/token",
    clientAuth: "post",
    badCode: () => json(400, { status: 400, message: "Invalid authorization code" }),
    badClient: () => json(403, { status: 403, message: "invalid client secret" }),
    tokenAnswer: async (token) => ({
      access_token: token,
      expires_in: 14124,
      refresh_token: `r-${token}`,
      scope: ["user:read:email"],
      token_type: "bearer",
    }),
    resources: {
      "GET /helix/users": (p, req, fake) => {
        if (req.headers["client-id"] !== fake.clientId) {
          return json(401, {
            error: "Unauthorized",
            status: 401,
            message: "Client ID and OAuth token do not match",
          });
        }
        return json(200, {
          data: [
            {
              id: p.id,
              login: p.login,
              display_name: "AdaL",
              type: "",
              broadcaster_type: "partner",
              description: "Notes on the engine",
              profile_image_url: p.avatarUrl,
              offline_image_url: "https://static-cdn.jtvnw.net/offline.png",
              view_count: 0,
              email: p.email,
              created_at: "2016-12-14T20:32:28Z",
            },
          ],
        });
      },
    },
    unauthorized: () => json(401, { error: "Unauthorized", status: 401, message: "Invalid OAuth token" }),
  },
  expected: (fake) => ({
    subject: "4242",
    emails: [{ email: "ada@example.com", verified: true, primary: true }],
    identityData: {
      iss: fake.url,
      sub: "4242",
      picture: "https://cdn.example.com/ada.png",
      name: "ada",
      nickname: "AdaL",
      custom_claims: {
        broadcaster_type: "partner",
        description: "Notes on the engine",
        type: "",
        offline_image_url: "https://static-cdn.jtvnw.net/offline.png",
        view_count: 0,
      },
      slug: "AdaL",
      avatar_url: "https://cdn.example.com/ada.png",
      full_name: "ada",
      email: "ada@example.com",
      email_verified: true,
      phone_verified: false,
      provider_id: "4242",
    },
  }),
};
