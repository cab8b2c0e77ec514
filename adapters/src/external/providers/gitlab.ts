import { externalUser, text } from "../identity-data.js";
import { host, type ProviderDefinition } from "../provider-spec.js";

/**
 * GitLab (gitlab.com, or a self-hosted instance at `EXTERNAL_GITLAB_URL`): the profile at
 * `/api/v4/user`, whose address counts as verified once confirmed; the other addresses from
 * `/api/v4/user/emails` count as unverified, as in the reference.
 */
export const gitlab: ProviderDefinition = (base) => {
  const site = host(base, "gitlab.com");
  return {
    authorizationUrl: `${site}/oauth/authorize`,
    tokenUrl: `${site}/oauth/token`,
    scopes: ["read_user"],
    clientAuth: "post",
    async fetchUser(calls) {
      const user = await calls.getJson(`${site}/api/v4/user`);
      const emails = await calls.getJson(`${site}/api/v4/user/emails`);
      const others = (Array.isArray(emails) ? emails : []).map((e) => ({
        email: text(e, "email"),
        verified: false,
        primary: false,
      }));
      const email = text(user, "email");
      const primary = email ? [{ email, verified: text(user, "confirmed_at") !== "", primary: true }] : [];
      return externalUser(
        {
          iss: site,
          sub: text(user, "id"),
          name: text(user, "name"),
          picture: text(user, "avatar_url"),
          avatar_url: text(user, "avatar_url"),
          full_name: text(user, "name"),
        },
        [...others, ...primary],
      );
    },
  };
};
