import { bearer, json } from "./fake-provider.js";
import type { ProviderCase } from "./provider-suite.js";

const TENANT = "72f988bf-86f1-41af-91ab-2d7cd011db47";
const OID = "00000000-0000-0000-66f3-3332eca7ea81";

/** Microsoft Entra ID for one tenant (`EXTERNAL_AZURE_URL=<origin>/<tenant>`): the person in the ID token. */
export const azureCase: ProviderCase = {
  name: "azure",
  defaultScopes: ["openid"],
  signsInWithIdToken: true,
  badCodeWords: "invalid_grant: AADSTS70008",
  behaviour: {
    basePath: `/${TENANT}`,
    authorizePath: `/${TENANT}/oauth2/v2.0/authorize`,
    tokenPath: `/${TENANT}/oauth2/v2.0/token`,
    clientAuth: "post",
    badCode: () =>
      json(400, {
        error: "invalid_grant",
        error_description:
          "AADSTS70008: The provided authorization code or refresh token has expired due to inactivity.",
        error_codes: [70008],
      }),
    badClient: () =>
      json(401, {
        error: "invalid_client",
        error_description: "AADSTS7000215: Invalid client secret provided.",
      }),
    tokenAnswer: async (token, fake) => {
      const p = fake.person;
      const idToken = await fake.signIdToken({
        sub: "AAAAAAAAAAAAAAAAAAAAAIkzqFVrSaSaFHy782bbtaQ",
        oid: OID,
        tid: TENANT,
        ver: "2.0",
        aio: "Df2UVXL1ix!lMCWMSOJBcFatzcGfvFGhjKv8q5g0x732dR5MB5BisvGQO7YWByjd8iQDLq!eGbIDakyp5mnOrcdqHeYSnltepQmRp6AIZ8jY",
        name: `${p.firstName} ${p.lastName}`,
        preferred_username: p.email,
        email: p.email,
      });
      return bearer(token, { token_type: "Bearer", scope: "openid", id_token: idToken });
    },
    resources: {},
    unauthorized: () => json(401, { error: "invalid_token" }),
    idTokens: { jwksPath: "/discovery/v2.0/keys", issuer: (base) => `${base}/v2.0` },
  },
  expected: (fake) => ({
    subject: "AAAAAAAAAAAAAAAAAAAAAIkzqFVrSaSaFHy782bbtaQ",
    emails: [{ email: "ada@example.com", verified: true, primary: true }],
    identityData: {
      iss: `${fake.url}/v2.0`,
      sub: "AAAAAAAAAAAAAAAAAAAAAIkzqFVrSaSaFHy782bbtaQ",
      preferred_username: "ada@example.com",
      full_name: "Ada Lovelace",
      custom_claims: { oid: OID, tid: TENANT, email: "ada@example.com" },
      email: "ada@example.com",
      email_verified: true,
      phone_verified: false,
      provider_id: "AAAAAAAAAAAAAAAAAAAAAIkzqFVrSaSaFHy782bbtaQ",
    },
  }),
};
