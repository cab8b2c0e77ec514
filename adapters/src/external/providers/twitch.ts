import { child, externalUser, onlyEmail, text } from "../identity-data.js";
import { ProviderCallError } from "../provider-call.js";
import { host, type ProviderDefinition } from "../provider-spec.js";

/** Twitch: the user at Helix `/helix/users`, which wants the app's `Client-Id` header beside the token. */
export const twitch: ProviderDefinition = (base) => {
  const id = host(base, "id.twitch.tv");
  const api = host(base, "api.twitch.tv");
  return {
    authorizationUrl: `${id}/oauth2/authorize`,
    tokenUrl: `${id}/oauth2/token`,
    scopes: ["user:read:email"],
    clientAuth: "post",
    async fetchUser(calls) {
      const users = child(await calls.getJson(`${api}/helix/users`, { "Client-Id": calls.clientId }), "data");
      const user: unknown = Array.isArray(users) ? users[0] : undefined;
      if (user === undefined) throw new ProviderCallError("/helix/users: no user in the answer");
      const viewCount = child(user, "view_count");
      return externalUser(
        {
          iss: api,
          sub: text(user, "id"),
          picture: text(user, "profile_image_url"),
          name: text(user, "login"),
          nickname: text(user, "display_name"),
          custom_claims: {
            broadcaster_type: text(user, "broadcaster_type"),
            description: text(user, "description"),
            type: text(user, "type"),
            offline_image_url: text(user, "offline_image_url"),
            view_count: typeof viewCount === "number" ? viewCount : 0,
          },
          slug: text(user, "display_name"),
          avatar_url: text(user, "profile_image_url"),
          full_name: text(user, "login"),
        },
        onlyEmail(text(user, "email"), true),
      );
    },
  };
};
