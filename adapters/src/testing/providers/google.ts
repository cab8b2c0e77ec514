import { bearer, json } from "./fake-provider.js";
import type { ProviderCase } from "./provider-suite.js";

/** Google signs in with the ID token of its token answer; `/userinfo/v2/me` serves when there is none. */
export const googleCase: ProviderCase = {
  name: "google",
  defaultScopes: ["email", "profile"],
  signsInWithIdToken: true,
  badCodeWords: "invalid_grant: Bad Request",
  behaviour: {
    authorizePath: "/o/oauth2/v2/auth",
    tokenPath: "/token",
    clientAuth: "post",
    badCode: () => json(400, { error: "invalid_grant", error_description: "Bad Request" }),
    badClient: () => json(401, { error: "invalid_client", error_description: "Unauthorized" }),
    tokenAnswer: async (token, fake) => {
      const p = fake.person;
      const idToken = await fake.signIdToken({
        sub: p.id,
        azp: fake.clientId,
        email: p.email,
        email_verified: p.emailVerified,
        name: `${p.firstName} ${p.lastName}`,
        given_name: p.firstName,
        family_name: p.lastName,
        picture: p.avatarUrl,
        hd: "example.com",
      });
      return bearer(token, { token_type: "Bearer", scope: "openid email profile", id_token: idToken });
    },
    resources: {
      "GET /userinfo/v2/me": (p) =>
        json(200, {
          id: p.id,
          email: p.email,
          verified_email: p.emailVerified,
          name: `${p.firstName} ${p.lastName}`,
          picture: p.avatarUrl,
        }),
    },
    unauthorized: () =>
      json(401, {
        error: {
          code: 401,
          message: "Request had invalid authentication credentials.",
          status: "UNAUTHENTICATED",
        },
      }),
    idTokens: { jwksPath: "/oauth2/v3/certs", issuer: (base) => base },
  },
  expected: (fake) => ({
    subject: "4242",
    emails: [{ email: "ada@example.com", verified: true, primary: true }],
    identityData: {
      iss: fake.url,
      sub: "4242",
      name: "Ada Lovelace",
      picture: "https://cdn.example.com/ada.png",
      avatar_url: "https://cdn.example.com/ada.png",
      full_name: "Ada Lovelace",
      custom_claims: { hd: "example.com" },
      email: "ada@example.com",
      email_verified: true,
      phone_verified: false,
      provider_id: "4242",
    },
  }),
};
