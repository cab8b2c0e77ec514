import { json } from "./fake-provider.js";
import type { ProviderCase } from "./provider-suite.js";

const USER_ID = "e79a0b74-3aba-4149-9f74-0bb5791a6ee6";

export const notionCase: ProviderCase = {
  name: "notion",
  defaultScopes: [],
  authorizationParams: { owner: "user" },
  badCodeWords: "invalid_grant: Invalid code.",
  behaviour: {
    authorizePath: "/v1/oauth/authorize",
    tokenPath: "/v1/oauth/token",
    clientAuth: "basic",
    badCode: () => json(400, { error: "invalid_grant", error_description: "Invalid code." }),
    badClient: () => json(401, { error: "invalid_client" }),
    tokenAnswer: async (token) => ({
      access_token: token,
      token_type: "bearer",
      bot_id: "b3414d65-1224-45e5-8d5a-6c9a4e5e2d11",
      workspace_name: "Analytical Engines",
      workspace_id: "2b9a5c1e-0e0e-4c4c-9a9a-0e0e0e0e0e0e",
    }),
    resources: {
      "GET /v1/users/me": (p, req) => {
        if (!req.headers["notion-version"]) {
          return json(400, {
            object: "error",
            status: 400,
            code: "missing_version",
            message: "Notion-Version header failed validation.",
          });
        }
        return json(200, {
          object: "user",
          id: "b3414d65-1224-45e5-8d5a-6c9a4e5e2d11",
          type: "bot",
          bot: {
            owner: {
              type: "user",
              user: {
                object: "user",
                id: USER_ID,
                name: `${p.firstName} ${p.lastName}`,
                avatar_url: p.avatarUrl,
                type: "person",
                person: { email: p.email },
              },
            },
            workspace_name: "Analytical Engines",
          },
        });
      },
    },
    unauthorized: () =>
      json(401, { object: "error", status: 401, code: "unauthorized", message: "API token is invalid." }),
  },
  expected: (fake) => ({
    subject: USER_ID,
    emails: [{ email: "ada@example.com", verified: true, primary: true }],
    identityData: {
      iss: fake.url,
      sub: USER_ID,
      name: "Ada Lovelace",
      picture: "https://cdn.example.com/ada.png",
      avatar_url: "https://cdn.example.com/ada.png",
      full_name: "Ada Lovelace",
      email: "ada@example.com",
      email_verified: true,
      phone_verified: false,
      provider_id: USER_ID,
    },
  }),
};
