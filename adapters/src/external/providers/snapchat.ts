import { child, externalUser, onlyEmail, text } from "../identity-data.js";
import { host, type ProviderDefinition } from "../provider-spec.js";

/** The issuer the reference gives Snapchat identities. */
const SNAPCHAT_ISSUER = "https://accounts.snapchat.com/accounts/oauth2/token";

/**
 * Snapchat (Login Kit): the person from the GraphQL query `{me {externalId displayName bitmoji {avatar}
 * email}}` at `kit.snapchat.com/v1/me`. Snapchat gives no address unless the app was granted one;
 * one it gives counts as verified, as in the reference.
 */
export const snapchat: ProviderDefinition = (base) => {
  const accounts = host(base, "accounts.snapchat.com");
  const kit = host(base, "kit.snapchat.com");
  return {
    authorizationUrl: `${accounts}/accounts/oauth2/auth`,
    tokenUrl: `${accounts}/accounts/oauth2/token`,
    scopes: [
      "https://auth.snapchat.com/oauth2/api/user.external_id",
      "https://auth.snapchat.com/oauth2/api/user.display_name",
      "https://auth.snapchat.com/oauth2/api/user.bitmoji.avatar",
    ],
    clientAuth: "basic",
    async fetchUser(calls) {
      const query = new URLSearchParams({
        query: "{me { externalId displayName bitmoji { avatar id } email } }",
      });
      const me = child(await calls.getJson(`${kit}/v1/me?${query}`), "data", "me");
      const name = text(me, "displayName");
      const avatar = text(child(me, "bitmoji"), "avatar");
      return externalUser(
        {
          iss: SNAPCHAT_ISSUER,
          sub: text(me, "externalId"),
          name,
          picture: avatar,
          slug: name,
          avatar_url: avatar,
          full_name: name,
        },
        onlyEmail(text(me, "email"), true),
      );
    },
  };
};
