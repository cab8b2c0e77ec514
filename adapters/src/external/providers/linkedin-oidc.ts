import type { JWTPayload } from "jose";
import { externalUser, fullName, onlyEmail, text } from "../identity-data.js";
import { host, type ProviderDefinition } from "../provider-spec.js";

/**
 * LinkedIn (OpenID Connect): the person from the ID token of the token answer, checked against
 * LinkedIn's keys (issuer `https://www.linkedin.com/oauth`, or `<URL>/oauth`). As in the reference,
 * its ID tokens are not accepted at the id_token grant.
 */
export const linkedinOidc: ProviderDefinition = (base) => {
  const site = host(base, "www.linkedin.com");
  const fromIdToken = (claims: JWTPayload) => {
    const given = text(claims, "given_name");
    const family = text(claims, "family_name");
    // LinkedIn has sent email_verified both as a boolean and as the string "true".
    const verified = claims.email_verified === true || claims.email_verified === "true";
    return externalUser(
      {
        iss: claims.iss,
        sub: claims.sub ?? "",
        name: fullName(given, family),
        given_name: given,
        family_name: family,
        locale: text(claims, "locale"),
        picture: text(claims, "picture"),
      },
      onlyEmail(text(claims, "email"), verified),
    );
  };
  return {
    authorizationUrl: `${site}/oauth/v2/authorization`,
    tokenUrl: `${site}/oauth/v2/accessToken`,
    scopes: ["openid", "email", "profile"],
    clientAuth: "post",
    fetchUser: async (calls) => fromIdToken(await calls.idTokenClaims()),
    idToken: {
      issuer: `${site}/oauth`,
      jwksUrl: `${site}/oauth/openid/jwks`,
      map: fromIdToken,
      grant: false,
    },
  };
};
