import { child, externalUser, flag, onlyEmail, text } from "../identity-data.js";
import { host, type ProviderDefinition } from "../provider-spec.js";

/**
 * Kakao: the person at `/v2/user/me`; the address counts as verified only when Kakao says it is both
 * verified and still valid (`is_email_verified`, `is_email_valid`). The client secret goes in the
 * token request's form, as Kakao asks.
 */
export const kakao: ProviderDefinition = (base) => {
  const auth = host(base, "kauth.kakao.com");
  const api = host(base, "kapi.kakao.com");
  return {
    authorizationUrl: `${auth}/oauth/authorize`,
    tokenUrl: `${auth}/oauth/token`,
    scopes: ["account_email", "profile_image", "profile_nickname"],
    clientAuth: "post",
    async fetchUser(calls) {
      const user = await calls.getJson(`${api}/v2/user/me`);
      const account = child(user, "kakao_account");
      const profile = child(account, "profile");
      const nickname = text(profile, "nickname");
      const verified = flag(account, "is_email_verified") && flag(account, "is_email_valid");
      return externalUser(
        {
          iss: api,
          sub: text(user, "id"),
          name: nickname,
          preferred_username: nickname,
          avatar_url: text(profile, "profile_image_url"),
          full_name: nickname,
          user_name: nickname,
        },
        onlyEmail(text(account, "email"), verified),
      );
    },
  };
};
