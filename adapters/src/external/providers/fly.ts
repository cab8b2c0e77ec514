import { child, externalUser, onlyEmail, text } from "../identity-data.js";
import { host, type ProviderDefinition } from "../provider-spec.js";

/**
 * Fly.io: the person is the access token's own description at `/oauth/token/info` (Fly offers only
 * the `read` scope). Fly's address counts as verified, as in the reference; its organizations, the
 * application and the granted scopes go to `custom_claims`.
 */
export const fly: ProviderDefinition = (base) => {
  const api = host(base, "api.fly.io");
  return {
    authorizationUrl: `${api}/oauth/authorize`,
    tokenUrl: `${api}/oauth/token`,
    scopes: ["read"],
    clientAuth: "basic",
    async fetchUser(calls) {
      const info = await calls.getJson(`${api}/oauth/token/info`);
      const email = text(info, "email");
      return externalUser(
        {
          iss: api,
          sub: text(info, "user_id"),
          full_name: text(info, "user_name"),
          email,
          custom_claims: {
            resource_owner_id: text(info, "resource_owner_id"),
            organizations: child(info, "organizations") ?? null,
            application: child(info, "application") ?? null,
            scope: child(info, "scope") ?? null,
            created_at: child(info, "created_at") ?? 0,
          },
        },
        onlyEmail(email, true),
      );
    },
  };
};
