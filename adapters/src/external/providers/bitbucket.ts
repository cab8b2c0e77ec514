import { child, externalUser, flag, text } from "../identity-data.js";
import { host, type ProviderDefinition } from "../provider-spec.js";

/** Bitbucket Cloud: the profile at `/2.0/user`, the addresses at `/2.0/user/emails`. */
export const bitbucket: ProviderDefinition = (base) => {
  const site = host(base, "bitbucket.org");
  const api = `${host(base, "api.bitbucket.org")}/2.0`;
  return {
    authorizationUrl: `${site}/site/oauth2/authorize`,
    tokenUrl: `${site}/site/oauth2/access_token`,
    scopes: ["account", "email"],
    clientAuth: "basic",
    async fetchUser(calls) {
      const user = await calls.getJson(`${api}/user`);
      const emails = child(await calls.getJson(`${api}/user/emails`), "values");
      const avatar = text(child(user, "links", "avatar") ?? child(user, "avatar"), "href");
      return externalUser(
        {
          iss: api,
          sub: text(user, "uuid"),
          name: text(user, "display_name"),
          picture: avatar,
          avatar_url: avatar,
          full_name: text(user, "display_name"),
        },
        (Array.isArray(emails) ? emails : []).map((e) => ({
          email: text(e, "email"),
          verified: flag(e, "is_confirmed"),
          primary: flag(e, "is_primary"),
        })),
      );
    },
  };
};
