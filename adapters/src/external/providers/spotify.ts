import { child, externalUser, onlyEmail, text } from "../identity-data.js";
import { host, type ProviderDefinition } from "../provider-spec.js";

/** Spotify: the profile at `/v1/me` (at `<URL>/me` with a base URL, as in the reference); its largest image is the avatar. */
export const spotify: ProviderDefinition = (base) => {
  const accounts = host(base, "accounts.spotify.com");
  const api = host(base, "api.spotify.com/v1");
  return {
    authorizationUrl: `${accounts}/authorize`,
    tokenUrl: `${accounts}/api/token`,
    scopes: ["user-read-email"],
    clientAuth: "basic",
    async fetchUser(calls) {
      const user = await calls.getJson(`${api}/me`);
      const images = child(user, "images");
      const area = (image: unknown) =>
        (Number(text(image, "height")) || 0) * (Number(text(image, "width")) || 0);
      const largest = (Array.isArray(images) ? images : []).reduce<unknown>(
        (best, image) => (best === undefined || area(image) > area(best) ? image : best),
        undefined,
      );
      const avatar = text(largest, "url");
      return externalUser(
        {
          iss: api,
          sub: text(user, "id"),
          name: text(user, "display_name"),
          picture: avatar,
          avatar_url: avatar,
          full_name: text(user, "display_name"),
        },
        // Spotify does not say whether the address was verified.
        onlyEmail(text(user, "email"), false),
      );
    },
  };
};
