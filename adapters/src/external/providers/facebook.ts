import { createHmac } from "node:crypto";
import { child, externalUser, fullName, onlyEmail, text } from "../identity-data.js";
import { host, type ProviderDefinition } from "../provider-spec.js";

/** Facebook's issuer of Limited Login ID tokens. */
export const FACEBOOK_ISSUER = "https://www.facebook.com";

/**
 * Facebook: the profile at the Graph API's `/me`, signed with `appsecret_proof` (HMAC-SHA256 of the
 * access token under the app secret), which apps that require it refuse calls without. Its addresses
 * are verified by Facebook. Limited Login ID tokens are accepted at the id_token grant.
 */
export const facebook: ProviderDefinition = (base) => {
  const graph = host(base, "graph.facebook.com");
  const profileUrl = `${graph}/me?fields=email,first_name,last_name,name,picture`;
  return {
    authorizationUrl: `${host(base, "www.facebook.com")}/dialog/oauth`,
    tokenUrl: `${graph}/oauth/access_token`,
    scopes: ["email"],
    clientAuth: "post",
    async fetchUser(calls) {
      const proof = createHmac("sha256", calls.secret).update(calls.tokens.accessToken).digest("hex");
      const user = await calls.getJson(`${profileUrl}&appsecret_proof=${proof}`);
      const name = fullName(text(user, "first_name"), text(user, "last_name"));
      const picture = text(child(user, "picture", "data"), "url");
      return externalUser(
        {
          iss: profileUrl,
          sub: text(user, "id"),
          name,
          nickname: text(user, "name"),
          picture,
          slug: text(user, "name"),
          avatar_url: picture,
          full_name: name,
        },
        onlyEmail(text(user, "email"), true),
      );
    },
    idToken: {
      issuer: base === undefined ? FACEBOOK_ISSUER : host(base, ""),
      jwksUrl: `${host(base, "limited.facebook.com")}/.well-known/oauth/openid/jwks/`,
      // The reference skips the nonce rule for Limited Login tokens.
      skipNonceCheck: true,
      map: (claims) =>
        externalUser(
          {
            iss: claims.iss,
            sub: claims.sub ?? "",
            name: text(claims, "name"),
            picture: text(claims, "picture"),
            email: text(claims, "email"),
          },
          onlyEmail(text(claims, "email"), true),
        ),
    },
  };
};
