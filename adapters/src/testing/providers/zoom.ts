import { bearer, json } from "./fake-provider.js";
import type { ProviderCase } from "./provider-suite.js";

const ID = "KDcuGIm1QgePTO8WbOqwIQ";

export const zoomCase: ProviderCase = {
  name: "zoom",
  defaultScopes: [],
  badCodeWords: "invalid_request: Invalid authorization code",
  behaviour: {
    authorizePath: "/oauth/authorize",
    tokenPath: "/oauth/token",
    clientAuth: "basic",
    badCode: () => json(400, { reason: "Invalid authorization code", error: "invalid_request" }),
    badClient: () => json(401, { reason: "Invalid client_id or client_secret", error: "invalid_client" }),
    tokenAnswer: async (token) => bearer(token, { scope: "user:read" }),
    resources: {
      "GET /v2/users/me": (p) =>
        json(200, {
          id: ID,
          first_name: p.firstName,
          last_name: p.lastName,
          email: p.email,
          type: 1,
          pic_url: p.avatarUrl,
          login_type: 100,
          verified: p.emailVerified ? 1 : 0,
        }),
    },
    unauthorized: () => json(401, { code: 124, message: "Invalid access token." }),
  },
  expected: (fake) => ({
    subject: ID,
    emails: [{ email: "ada@example.com", verified: true, primary: true }],
    identityData: {
      iss: `${fake.url}/v2`,
      sub: ID,
      name: "Ada Lovelace",
      picture: "https://cdn.example.com/ada.png",
      avatar_url: "https://cdn.example.com/ada.png",
      full_name: "Ada Lovelace",
      email: "ada@example.com",
      email_verified: true,
      phone_verified: false,
      provider_id: ID,
    },
  }),
};
