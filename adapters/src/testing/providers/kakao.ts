import { bearer, json } from "./fake-provider.js";
import type { ProviderCase } from "./provider-suite.js";

const ID = 3141592653;

/** Kakao: the client secret in the token form, the person at `/v2/user/me` with a numeric id. */
export const kakaoCase: ProviderCase = {
  name: "kakao",
  defaultScopes: ["account_email", "profile_image", "profile_nickname"],
  badCodeWords: "invalid_grant: authorization code not found",
  behaviour: {
    authorizePath: "/oauth/authorize",
    tokenPath: "/oauth/token",
    clientAuth: "post",
    badCode: () =>
      json(400, {
        error: "invalid_grant",
        error_description: "authorization code not found",
        error_code: "KOE320",
      }),
    badClient: () =>
      json(401, {
        error: "invalid_client",
        error_description: "Bad client credentials",
        error_code: "KOE010",
      }),
    tokenAnswer: async (token) =>
      bearer(token, { token_type: "bearer", scope: "account_email profile_image profile_nickname" }),
    resources: {
      "GET /v2/user/me": (p) =>
        json(200, {
          id: ID,
          connected_at: "2026-01-01T00:00:00Z",
          kakao_account: {
            profile_nickname_needs_agreement: false,
            profile: { nickname: p.login, profile_image_url: p.avatarUrl, is_default_image: false },
            has_email: true,
            email: p.email,
            is_email_valid: true,
            is_email_verified: p.emailVerified,
          },
        }),
    },
    unauthorized: () => json(401, { msg: "this access token does not exist", code: -401 }),
  },
  expected: (fake) => ({
    subject: String(ID),
    emails: [{ email: "ada@example.com", verified: true, primary: true }],
    identityData: {
      iss: fake.url,
      sub: String(ID),
      name: "ada",
      preferred_username: "ada",
      avatar_url: "https://cdn.example.com/ada.png",
      full_name: "ada",
      user_name: "ada",
      email: "ada@example.com",
      email_verified: true,
      phone_verified: false,
      provider_id: String(ID),
    },
  }),
};
