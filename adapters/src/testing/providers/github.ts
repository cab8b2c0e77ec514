import { type FakePerson, json } from "./fake-provider.js";
import type { ProviderCase } from "./provider-suite.js";

const fullName = (p: FakePerson) => `${p.firstName} ${p.lastName}`;

/** GitHub Enterprise's layout (`<URL>/login/oauth/…`, `<URL>/api/v3/…`), with GitHub's answers. */
export const githubCase: ProviderCase = {
  name: "github",
  defaultScopes: ["user:email"],
  badCodeWords: "bad_verification_code: The code passed is incorrect or expired.",
  behaviour: {
    authorizePath: "/login/oauth/authorize",
    tokenPath: "/login/oauth/access_token",
    clientAuth: "post",
    // GitHub answers a refused code with HTTP 200 and an error body.
    badCode: () =>
      json(200, {
        error: "bad_verification_code",
        error_description: "The code passed is incorrect or expired.",
        error_uri:
          "https://docs.github.com/apps/managing-oauth-apps/troubleshooting-oauth-app-access-token-request-errors/#bad-verification-code",
      }),
    badClient: () =>
      json(200, {
        error: "incorrect_client_credentials",
        error_description: "The client_id and/or client_secret passed are incorrect.",
      }),
    tokenAnswer: async (token) => ({ access_token: token, token_type: "bearer", scope: "user:email" }),
    resources: {
      "GET /api/v3/user": (p) =>
        json(200, {
          login: p.login,
          id: Number(p.id),
          avatar_url: p.avatarUrl,
          name: fullName(p),
          email: null,
        }),
      "GET /api/v3/user/emails": (p) =>
        json(200, [
          { email: "ada@work.example.com", primary: false, verified: false, visibility: null },
          { email: p.email, primary: true, verified: p.emailVerified, visibility: "public" },
        ]),
    },
    unauthorized: () =>
      json(401, { message: "Bad credentials", documentation_url: "https://docs.github.com/rest" }),
  },
  expected: (fake) => ({
    subject: "4242",
    emails: [
      { email: "ada@example.com", verified: true, primary: true },
      { email: "ada@work.example.com", verified: false, primary: false },
    ],
    identityData: {
      iss: `${fake.url}/api/v3`,
      sub: "4242",
      name: "Ada Lovelace",
      preferred_username: "ada",
      avatar_url: "https://cdn.example.com/ada.png",
      full_name: "Ada Lovelace",
      user_name: "ada",
      email: "ada@example.com",
      email_verified: true,
      phone_verified: false,
      provider_id: "4242",
    },
  }),
};
