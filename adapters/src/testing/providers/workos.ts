import { type FakePerson, json } from "./fake-provider.js";
import type { ProviderCase } from "./provider-suite.js";

const profile = (p: FakePerson) => ({
  object: "profile",
  id: "prof_01DMC79VCBZ0NY2099737PSVF1",
  connection_id: "conn_01E4ZCR3C56J083X43JQXF3JK5",
  connection_type: "OktaSAML",
  organization_id: "org_01EHWNCE74X7JSDV0X3SZ3KJNY",
  email: p.email,
  first_name: p.firstName,
  last_name: p.lastName,
  idp_id: "00u1a0ufowBJlzPlk357",
  raw_attributes: {},
});

/** WorkOS SSO; its token answer has no token_type and carries the profile, which `/sso/profile` serves too. */
export const workosCase: ProviderCase = {
  name: "workos",
  defaultScopes: [],
  badCodeWords: "invalid_grant: The code has expired or is invalid.",
  behaviour: {
    authorizePath: "/sso/authorize",
    tokenPath: "/sso/token",
    clientAuth: "post",
    badCode: () =>
      json(400, { error: "invalid_grant", error_description: "The code has expired or is invalid." }),
    badClient: () => json(401, { error: "invalid_client", error_description: "Invalid client secret." }),
    tokenAnswer: async (token, fake) => ({ access_token: token, profile: profile(fake.person) }),
    resources: { "GET /sso/profile": (p) => json(200, profile(p)) },
    unauthorized: () => json(401, { message: "Unauthorized" }),
  },
  expected: (fake) => ({
    subject: "prof_01DMC79VCBZ0NY2099737PSVF1",
    emails: [{ email: "ada@example.com", verified: true, primary: true }],
    identityData: {
      iss: fake.url,
      sub: "prof_01DMC79VCBZ0NY2099737PSVF1",
      name: "Ada Lovelace",
      custom_claims: {
        connection_id: "conn_01E4ZCR3C56J083X43JQXF3JK5",
        organization_id: "org_01EHWNCE74X7JSDV0X3SZ3KJNY",
      },
      full_name: "Ada Lovelace",
      email: "ada@example.com",
      email_verified: true,
      phone_verified: false,
      provider_id: "prof_01DMC79VCBZ0NY2099737PSVF1",
    },
  }),
};
