import { child, externalUser, onlyEmail, text } from "../identity-data.js";
import { host, type ProviderDefinition } from "../provider-spec.js";

/**
 * X (formerly Twitter), API v2 with OAuth 2.0 and PKCE (the reference's `x`; its OAuth 1.0a `twitter`
 * is not offered). The person is `/2/users/me`; X gives only a confirmed address (`confirmed_email`,
 * with the `users.email` scope), so an address it gives counts as verified.
 */
export const x: ProviderDefinition = (base) => {
  const web = host(base, "x.com");
  const api = host(base, "api.x.com");
  return {
    authorizationUrl: `${web}/i/oauth2/authorize`,
    tokenUrl: `${api}/2/oauth2/token`,
    // tweet.read is required for any OAuth 2.0 user context, even one that reads no posts.
    scopes: ["users.email", "tweet.read", "users.read", "offline.access"],
    clientAuth: "basic",
    pkce: true,
    async fetchUser(calls) {
      const fields = "id,name,username,confirmed_email,profile_image_url,url,created_at";
      const user = child(await calls.getJson(`${api}/2/users/me?user.fields=${fields}`), "data");
      const username = text(user, "username");
      const createdAt = text(user, "created_at");
      return externalUser(
        {
          iss: api,
          sub: text(user, "id"),
          name: text(user, "name"),
          preferred_username: username,
          picture: text(user, "profile_image_url"),
          profile: username ? `https://x.com/${username}` : "",
          website: text(user, "url"),
          ...(createdAt ? { custom_claims: { created_at: createdAt } } : {}),
          avatar_url: text(user, "profile_image_url"),
          full_name: text(user, "name"),
          user_name: username,
        },
        onlyEmail(text(user, "confirmed_email"), true),
      );
    },
  };
};
