import { externalUser, flag, onlyEmail, text } from "../identity-data.js";
import { host, type ProviderDefinition } from "../provider-spec.js";

/** Discord: the profile and address at `/api/users/@me`; the avatar URL is built on Discord's CDN. */
export const discord: ProviderDefinition = (base) => {
  const api = `${host(base, "discord.com")}/api`;
  return {
    authorizationUrl: `${api}/oauth2/authorize`,
    tokenUrl: `${api}/oauth2/token`,
    scopes: ["email", "identify"],
    clientAuth: "post",
    async fetchUser(calls) {
      const user = await calls.getJson(`${api}/users/@me`);
      const id = text(user, "id");
      const avatar = text(user, "avatar");
      const discriminator = text(user, "discriminator");
      // No avatar: Discord's default one, chosen by the discriminator (as the reference does).
      const avatarUrl =
        avatar === ""
          ? `https://cdn.discordapp.com/embed/avatars/${(Number.parseInt(discriminator, 10) || 0) % 5}.png`
          : `https://cdn.discordapp.com/avatars/${id}/${avatar}.${avatar.startsWith("a_") ? "gif" : "png"}`;
      return externalUser(
        {
          iss: api,
          sub: id,
          name: `${text(user, "username")}#${discriminator}`,
          picture: avatarUrl,
          custom_claims: { global_name: text(user, "global_name") },
          avatar_url: avatarUrl,
          full_name: text(user, "username"),
        },
        onlyEmail(text(user, "email"), flag(user, "verified")),
      );
    },
  };
};
