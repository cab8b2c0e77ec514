import { json } from "./fake-provider.js";
import type { ProviderCase } from "./provider-suite.js";

/** Sign in with Slack (OpenID Connect); Slack answers errors with HTTP 200 and `ok: false`. */
export const slackOidcCase: ProviderCase = {
  name: "slack_oidc",
  defaultScopes: ["profile", "email", "openid"],
  badCodeWords: "HTTP 200: invalid_code",
  behaviour: {
    authorizePath: "/openid/connect/authorize",
    tokenPath: "/api/openid.connect.token",
    clientAuth: "post",
    badCode: () => json(200, { ok: false, error: "invalid_code" }),
    badClient: () => json(200, { ok: false, error: "bad_client_secret" }),
    tokenAnswer: async (token) => ({
      ok: true,
      access_token: token,
      token_type: "Bearer",
      expires_in: 43200,
    }),
    resources: {
      "GET /api/openid.connect.userInfo": (p) =>
        json(200, {
          ok: true,
          sub: "U0R7JM",
          "https://slack.com/user_id": "U0R7JM",
          "https://slack.com/team_id": "T0R7GR",
          email: p.email,
          email_verified: p.emailVerified,
          name: `${p.firstName} ${p.lastName}`,
          picture: p.avatarUrl,
          given_name: p.firstName,
          family_name: p.lastName,
          locale: "en-US",
        }),
    },
    unauthorized: () => json(200, { ok: false, error: "invalid_auth" }),
  },
  expected: (fake) => ({
    subject: "U0R7JM",
    emails: [{ email: "ada@example.com", verified: true, primary: true }],
    identityData: {
      iss: `${fake.url}/api`,
      sub: "U0R7JM",
      name: "Ada Lovelace",
      picture: "https://cdn.example.com/ada.png",
      custom_claims: { "https://slack.com/team_id": "T0R7GR" },
      avatar_url: "https://cdn.example.com/ada.png",
      full_name: "Ada Lovelace",
      email: "ada@example.com",
      email_verified: true,
      phone_verified: false,
      provider_id: "U0R7JM",
    },
  }),
};
