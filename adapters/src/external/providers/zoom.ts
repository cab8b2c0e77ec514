import { externalUser, fullName, onlyEmail, text } from "../identity-data.js";
import { host, type ProviderDefinition } from "../provider-spec.js";

/**
 * Zoom: the profile at `/v2/users/me`. An address counts as verified unless the account signs in
 * with a Zoom password (`login_type` 100) and Zoom has not verified it.
 */
export const zoom: ProviderDefinition = (base) => {
  const oauth = `${host(base, "zoom.us")}/oauth`;
  const api = `${host(base, "api.zoom.us")}/v2`;
  return {
    authorizationUrl: `${oauth}/authorize`,
    tokenUrl: `${oauth}/token`,
    scopes: [],
    clientAuth: "basic",
    async fetchUser(calls) {
      const user = await calls.getJson(`${api}/users/me`);
      const name = fullName(text(user, "first_name"), text(user, "last_name"));
      const verified = text(user, "login_type") !== "100" || (text(user, "verified") || "0") !== "0";
      return externalUser(
        {
          iss: api,
          sub: text(user, "id"),
          name,
          picture: text(user, "pic_url"),
          avatar_url: text(user, "pic_url"),
          full_name: name,
        },
        onlyEmail(text(user, "email"), verified),
      );
    },
  };
};
