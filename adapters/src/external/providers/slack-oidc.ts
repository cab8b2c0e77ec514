import { externalUser, flag, onlyEmail, text } from "../identity-data.js";
import { ProviderCallError } from "../provider-call.js";
import { host, type ProviderDefinition } from "../provider-spec.js";

/**
 * Slack (Sign in with Slack, OpenID Connect): the person from `openid.connect.userInfo`. Slack answers
 * its errors with HTTP 200 and `{"ok": false, "error": …}`.
 */
export const slackOidc: ProviderDefinition = (base) => {
  const site = host(base, "slack.com");
  const api = `${site}/api`;
  return {
    authorizationUrl: `${site}/openid/connect/authorize`,
    tokenUrl: `${api}/openid.connect.token`,
    scopes: ["profile", "email", "openid"],
    clientAuth: "post",
    async fetchUser(calls) {
      const user = await calls.getJson(`${api}/openid.connect.userInfo`);
      if (typeof user === "object" && user !== null && (user as { ok?: unknown }).ok === false) {
        throw new ProviderCallError(`openid.connect.userInfo: ${text(user, "error") || "refused"}`);
      }
      return externalUser(
        {
          iss: api,
          sub: text(user, "https://slack.com/user_id"),
          name: text(user, "name"),
          picture: text(user, "picture"),
          custom_claims: { "https://slack.com/team_id": text(user, "https://slack.com/team_id") },
          avatar_url: text(user, "picture"),
          full_name: text(user, "name"),
        },
        onlyEmail(text(user, "email"), flag(user, "email_verified")),
      );
    },
  };
};
