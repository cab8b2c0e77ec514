import { json } from "./fake-provider.js";
import type { ProviderCase } from "./provider-suite.js";

export const linkedinOidcCase: ProviderCase = {
  name: "linkedin_oidc",
  defaultScopes: ["openid", "email", "profile"],
  signsInWithIdToken: true,
  badCodeWords: "invalid_request: Unable to retrieve access token",
  behaviour: {
    authorizePath: "/oauth/v2/authorization",
    tokenPath: "/oauth/v2/accessToken",
    clientAuth: "post",
    badCode: () =>
      json(400, {
        error: "invalid_request",
        error_description:
          "Unable to retrieve access token: appid/redirect uri/code verifier does not match authorization code. Or authorization code expired.",
      }),
    badClient: () =>
      json(401, { error: "invalid_client", error_description: "Client authentication failed" }),
    tokenAnswer: async (token, fake) => {
      const p = fake.person;
      const idToken = await fake.signIdToken({
        sub: "782bbtaQ",
        name: `${p.firstName} ${p.lastName}`,
        given_name: p.firstName,
        family_name: p.lastName,
        picture: p.avatarUrl,
        locale: "en_US",
        email: p.email,
        email_verified: p.emailVerified,
      });
      return {
        access_token: token,
        expires_in: 5183999,
        scope: "email,openid,profile",
        token_type: "Bearer",
        id_token: idToken,
      };
    },
    resources: {},
    unauthorized: () => json(401, { serviceErrorCode: 65600, message: "Invalid access token", status: 401 }),
    idTokens: { jwksPath: "/oauth/openid/jwks", issuer: (base) => `${base}/oauth` },
  },
  expected: (fake) => ({
    subject: "782bbtaQ",
    emails: [{ email: "ada@example.com", verified: true, primary: true }],
    identityData: {
      iss: `${fake.url}/oauth`,
      sub: "782bbtaQ",
      name: "Ada Lovelace",
      given_name: "Ada",
      family_name: "Lovelace",
      locale: "en_US",
      picture: "https://cdn.example.com/ada.png",
      email: "ada@example.com",
      email_verified: true,
      phone_verified: false,
      provider_id: "782bbtaQ",
    },
  }),
};
