import { externalUser, onlyEmail, text } from "../identity-data.js";
import { host, type ProviderDefinition } from "../provider-spec.js";

/** Figma: the profile at `/v1/me`; Figma verifies its users' addresses. */
export const figma: ProviderDefinition = (base) => {
  const api = host(base, "api.figma.com");
  return {
    authorizationUrl: `${host(base, "www.figma.com")}/oauth`,
    tokenUrl: `${api}/v1/oauth/token`,
    scopes: ["current_user:read"],
    clientAuth: "post",
    async fetchUser(calls) {
      const user = await calls.getJson(`${api}/v1/me`);
      return externalUser(
        {
          iss: api,
          sub: text(user, "id"),
          name: text(user, "handle"),
          email: text(user, "email"),
          avatar_url: text(user, "img_url"),
          full_name: text(user, "handle"),
        },
        onlyEmail(text(user, "email"), true),
      );
    },
  };
};
