import type { JWTPayload } from "jose";
import { externalUser, flag, onlyEmail, text } from "../identity-data.js";
import { host, type ProviderDefinition } from "../provider-spec.js";

const GOOGLE_ISSUERS = ["https://accounts.google.com", "accounts.google.com"];

/**
 * Google: the person from the ID token of the token answer (signature checked against Google's keys),
 * or from `/userinfo/v2/me` when Google sends none. Its ID tokens are accepted at the id_token grant.
 */
export const google: ProviderDefinition = (base) => {
  const userInfoUrl = `${host(base, "www.googleapis.com")}/userinfo/v2/me`;
  const fromIdToken = (claims: JWTPayload) => {
    const verified = flag(claims, "email_verified") || flag(claims, "verified_email");
    const hd = text(claims, "hd");
    return externalUser(
      {
        iss: claims.iss,
        sub: claims.sub ?? "",
        name: text(claims, "name"),
        picture: text(claims, "picture"),
        avatar_url: text(claims, "picture"),
        full_name: text(claims, "name"),
        ...(hd ? { custom_claims: { hd } } : {}),
      },
      onlyEmail(text(claims, "email"), verified),
    );
  };
  return {
    authorizationUrl: `${host(base, "accounts.google.com")}/o/oauth2/v2/auth`,
    tokenUrl: `${host(base, "oauth2.googleapis.com")}/token`,
    scopes: ["email", "profile"],
    clientAuth: "post",
    async fetchUser(calls) {
      if (calls.tokens.idToken) return fromIdToken(await calls.idTokenClaims());
      const user = await calls.getJson(userInfoUrl);
      const verified = flag(user, "verified_email") || flag(user, "email_verified");
      return externalUser(
        {
          iss: userInfoUrl,
          sub: text(user, "id"),
          name: text(user, "name"),
          picture: text(user, "picture"),
          email: text(user, "email"),
          avatar_url: text(user, "picture"),
          full_name: text(user, "name"),
        },
        onlyEmail(text(user, "email"), verified),
      );
    },
    idToken: {
      issuer: base === undefined ? GOOGLE_ISSUERS : host(base, ""),
      jwksUrl: `${host(base, "www.googleapis.com")}/oauth2/v3/certs`,
      map: fromIdToken,
    },
  };
};
