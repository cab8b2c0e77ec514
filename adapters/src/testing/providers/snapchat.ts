import { bearer, json } from "./fake-provider.js";
import type { ProviderCase } from "./provider-suite.js";

const EXTERNAL_ID = "CAESIPiRBp0e5gLDq7VVurQ3P1vFPWqtxDafQWqf7bNmTaFp";
const AVATAR = "https://sdk.bitmoji.com/render/panel/ada-avatar.png";

/** Snapchat Login Kit: the person from a GraphQL query at `/v1/me`. */
export const snapchatCase: ProviderCase = {
  name: "snapchat",
  defaultScopes: [
    "https://auth.snapchat.com/oauth2/api/user.external_id",
    "https://auth.snapchat.com/oauth2/api/user.display_name",
    "https://auth.snapchat.com/oauth2/api/user.bitmoji.avatar",
  ],
  badCodeWords: "invalid_grant: Invalid Authorization Code",
  behaviour: {
    authorizePath: "/accounts/oauth2/auth",
    tokenPath: "/accounts/oauth2/token",
    clientAuth: "basic",
    badCode: () => json(400, { error: "invalid_grant", error_description: "Invalid Authorization Code" }),
    badClient: () => json(401, { error: "invalid_client", error_description: "Invalid client credentials" }),
    tokenAnswer: async (token) => bearer(token, { token_type: "Bearer", expires_in: 3600 }),
    resources: {
      "GET /v1/me": (p, req) =>
        (req.query.get("query") ?? "").includes("externalId")
          ? json(200, {
              data: {
                me: {
                  externalId: EXTERNAL_ID,
                  displayName: `${p.firstName} ${p.lastName}`,
                  bitmoji: { avatar: AVATAR, id: "bitmoji-1" },
                  email: p.email,
                },
              },
            })
          : json(400, { errors: [{ message: "query is required" }] }),
    },
    unauthorized: () => json(401, { error: "invalid_token" }),
  },
  expected: () => ({
    subject: EXTERNAL_ID,
    emails: [{ email: "ada@example.com", verified: true, primary: true }],
    identityData: {
      iss: "https://accounts.snapchat.com/accounts/oauth2/token",
      sub: EXTERNAL_ID,
      name: "Ada Lovelace",
      picture: AVATAR,
      slug: "Ada Lovelace",
      avatar_url: AVATAR,
      full_name: "Ada Lovelace",
      email: "ada@example.com",
      email_verified: true,
      phone_verified: false,
      provider_id: EXTERNAL_ID,
    },
  }),
};
