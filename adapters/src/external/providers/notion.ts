import { child, externalUser, onlyEmail, text } from "../identity-data.js";
import { host, type ProviderDefinition } from "../provider-spec.js";

const NOTION_VERSION = "2021-08-16";

/**
 * Notion: the person is the owner of the bot the token stands for (`/v1/users/me`, which needs the
 * `Notion-Version` header). Notion says nothing of verification; the reference counts the address as verified.
 */
export const notion: ProviderDefinition = (base) => {
  const api = host(base, "api.notion.com");
  return {
    authorizationUrl: `${api}/v1/oauth/authorize`,
    tokenUrl: `${api}/v1/oauth/token`,
    scopes: [],
    // Public integrations are installed by a user, who is the one signing in.
    authorizationParams: { owner: "user" },
    clientAuth: "basic",
    async fetchUser(calls) {
      const me = await calls.getJson(`${api}/v1/users/me`, { "Notion-Version": NOTION_VERSION });
      const user = child(me, "bot", "owner", "user");
      return externalUser(
        {
          iss: api,
          sub: text(user, "id"),
          name: text(user, "name"),
          picture: text(user, "avatar_url"),
          avatar_url: text(user, "avatar_url"),
          full_name: text(user, "name"),
        },
        onlyEmail(text(child(user, "person"), "email"), true),
      );
    },
  };
};
