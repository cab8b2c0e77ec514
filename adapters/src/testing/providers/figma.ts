import { json } from "./fake-provider.js";
import type { ProviderCase } from "./provider-suite.js";

export const figmaCase: ProviderCase = {
  name: "figma",
  defaultScopes: ["current_user:read"],
  badCodeWords: "HTTP 400: Invalid code",
  behaviour: {
    authorizePath: "/oauth",
    tokenPath: "/v1/oauth/token",
    clientAuth: "post",
    badCode: () => json(400, { error: true, status: 400, message: "Invalid code" }),
    badClient: () => json(400, { error: true, status: 400, message: "Invalid client secret" }),
    // Figma's token answer has no token_type.
    tokenAnswer: async (token) => ({
      user_id: "4242",
      access_token: token,
      refresh_token: `r-${token}`,
      expires_in: 7776000,
    }),
    resources: {
      "GET /v1/me": (p) => json(200, { id: p.id, email: p.email, handle: p.login, img_url: p.avatarUrl }),
    },
    unauthorized: () => json(403, { status: 403, err: "Invalid token" }),
  },
  expected: (fake) => ({
    subject: "4242",
    emails: [{ email: "ada@example.com", verified: true, primary: true }],
    identityData: {
      iss: fake.url,
      sub: "4242",
      name: "ada",
      email: "ada@example.com",
      avatar_url: "https://cdn.example.com/ada.png",
      full_name: "ada",
      email_verified: true,
      phone_verified: false,
      provider_id: "4242",
    },
  }),
};
