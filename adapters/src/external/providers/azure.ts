import type { JWTPayload } from "jose";
import { externalUser, onlyEmail, text } from "../identity-data.js";
import { host, type ProviderDefinition } from "../provider-spec.js";

const AZURE_ISSUER = /^https:\/\/login\.microsoftonline\.com\/([^/]+)\/v2\.0\/?$/;
const MULTI_TENANT = /\/(common|organizations|consumers)$/;

// Registered claims and those mapped elsewhere; every other claim goes to custom_claims, as in the reference.
const NOT_CUSTOM = new Set(
  "aud iss iat nbf exp c_hash at_hash aio nonce rh uti jti ver sub name preferred_username".split(" "),
);

/**
 * Microsoft Entra ID (Azure): the person is in the ID token. `EXTERNAL_AZURE_URL` names the tenant
 * (`https://login.microsoftonline.com/<tenant>`; default `common`): a single tenant's tokens must come
 * from exactly that tenant's issuer; with `common`, any tenant's issuer whose id matches the token's `tid`.
 */
export const azure: ProviderDefinition = (base) => {
  const tenant = host(base, "login.microsoftonline.com/common");
  const expectedIssuer = MULTI_TENANT.test(tenant) ? undefined : `${tenant}/v2.0`;
  const issuer = (iss: string, claims: JWTPayload): boolean => {
    if (expectedIssuer !== undefined) return iss === expectedIssuer;
    const tenantId = AZURE_ISSUER.exec(iss)?.[1];
    return tenantId !== undefined && (claims.tid === undefined || claims.tid === tenantId);
  };
  const fromIdToken = (claims: JWTPayload) => {
    const email = text(claims, "email");
    // xms_edov ("email domain owner verified") arrives as true or "1"; absent, the address counts as verified.
    const edov = claims.xms_edov;
    const verified = email !== "" && (edov === undefined || edov === true || edov === "1" || edov === "true");
    const custom = Object.fromEntries(Object.entries(claims).filter(([key]) => !NOT_CUSTOM.has(key)));
    return externalUser(
      {
        iss: claims.iss,
        sub: claims.sub ?? "",
        preferred_username: text(claims, "preferred_username"),
        full_name: text(claims, "name"),
        custom_claims: custom,
      },
      onlyEmail(email, verified),
    );
  };
  return {
    authorizationUrl: `${tenant}/oauth2/v2.0/authorize`,
    tokenUrl: `${tenant}/oauth2/v2.0/token`,
    scopes: ["openid"],
    clientAuth: "post",
    fetchUser: async (calls) => fromIdToken(await calls.idTokenClaims()),
    idToken: { issuer, jwksUrl: `${tenant}/discovery/v2.0/keys`, map: fromIdToken },
  };
};
