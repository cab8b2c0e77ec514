import { externalUser, flag, text } from "../identity-data.js";
import { host, type ProviderDefinition } from "../provider-spec.js";

/** GitHub (or GitHub Enterprise at `<URL>/api/v3`): the profile at `/user`, the addresses at `/user/emails`. */
export const github: ProviderDefinition = (base) => {
  const site = host(base, "github.com");
  const apiHost = host(base, "api.github.com");
  const api = apiHost.endsWith("api.github.com") ? apiHost : `${apiHost}/api/v3`;
  return {
    authorizationUrl: `${site}/login/oauth/authorize`,
    tokenUrl: `${site}/login/oauth/access_token`,
    scopes: ["user:email"],
    clientAuth: "post",
    async fetchUser(calls) {
      const user = await calls.getJson(`${api}/user`);
      const emails = await calls.getJson(`${api}/user/emails`);
      const id = text(user, "id");
      return externalUser(
        {
          iss: api,
          sub: id,
          name: text(user, "name"),
          preferred_username: text(user, "login"),
          avatar_url: text(user, "avatar_url"),
          full_name: text(user, "name"),
          user_name: text(user, "login"),
        },
        (Array.isArray(emails) ? emails : []).map((e) => ({
          email: text(e, "email"),
          verified: flag(e, "verified"),
          primary: flag(e, "primary"),
        })),
      );
    },
  };
};
