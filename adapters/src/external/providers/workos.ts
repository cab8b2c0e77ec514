import { externalUser, fullName, onlyEmail, text } from "../identity-data.js";
import { host, type ProviderDefinition } from "../provider-spec.js";

/**
 * WorkOS SSO: the profile of the person the identity provider signed in, from `/sso/profile` (the
 * same profile WorkOS also puts in its token answer). `/authorize?workos_provider=` (or
 * `connection`, `organization`) selects the connection; the core forwards it.
 */
export const workos: ProviderDefinition = (base) => {
  const api = host(base, "api.workos.com");
  return {
    authorizationUrl: `${api}/sso/authorize`,
    tokenUrl: `${api}/sso/token`,
    scopes: [],
    clientAuth: "post",
    async fetchUser(calls) {
      const profile = await calls.getJson(`${api}/sso/profile`);
      const name = fullName(text(profile, "first_name"), text(profile, "last_name"));
      return externalUser(
        {
          iss: api,
          sub: text(profile, "id"),
          name,
          custom_claims: {
            connection_id: text(profile, "connection_id"),
            organization_id: text(profile, "organization_id"),
          },
          full_name: name,
        },
        onlyEmail(text(profile, "email"), true),
      );
    },
  };
};
