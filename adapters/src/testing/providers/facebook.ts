import { createHmac } from "node:crypto";
import { json } from "./fake-provider.js";
import type { ProviderCase } from "./provider-suite.js";

export const facebookCase: ProviderCase = {
  name: "facebook",
  defaultScopes: ["email"],
  badCodeWords: "This authorization code has been used.",
  behaviour: {
    authorizePath: "/dialog/oauth",
    tokenPath: "/oauth/access_token",
    clientAuth: "post",
    badCode: () =>
      json(400, {
        error: { message: "This authorization code has been used.", type: "OAuthException", code: 100 },
      }),
    badClient: () =>
      json(400, { error: { message: "Error validating client secret.", type: "OAuthException", code: 1 } }),
    tokenAnswer: async (token) => ({ access_token: token, token_type: "bearer", expires_in: 5183944 }),
    resources: {
      "GET /me": (p, req, fake) => {
        const token = (req.headers.authorization ?? "").replace(/^Bearer /i, "");
        const proof = createHmac("sha256", fake.secret).update(token).digest("hex");
        // Apps that require appsecret_proof refuse Graph calls without the right one.
        if (req.query.get("appsecret_proof") !== proof) {
          return json(400, {
            error: {
              message: "Invalid appsecret_proof provided in the API argument",
              type: "GraphMethodException",
              code: 100,
            },
          });
        }
        return json(200, {
          id: p.id,
          email: p.email,
          first_name: p.firstName,
          last_name: p.lastName,
          name: `${p.firstName} ${p.lastName}`,
          picture: { data: { height: 50, is_silhouette: false, url: p.avatarUrl, width: 50 } },
        });
      },
    },
    unauthorized: () =>
      json(401, {
        error: {
          message: "Invalid OAuth access token - Cannot parse access token",
          type: "OAuthException",
          code: 190,
        },
      }),
    idTokens: { jwksPath: "/.well-known/oauth/openid/jwks/", issuer: (base) => base },
  },
  expected: (fake) => ({
    subject: "4242",
    emails: [{ email: "ada@example.com", verified: true, primary: true }],
    identityData: {
      iss: `${fake.url}/me?fields=email,first_name,last_name,name,picture`,
      sub: "4242",
      name: "Ada Lovelace",
      nickname: "Ada Lovelace",
      picture: "https://cdn.example.com/ada.png",
      slug: "Ada Lovelace",
      avatar_url: "https://cdn.example.com/ada.png",
      full_name: "Ada Lovelace",
      email: "ada@example.com",
      email_verified: true,
      phone_verified: false,
      provider_id: "4242",
    },
  }),
};
