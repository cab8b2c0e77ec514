import type { ExternalUser } from "@authsvc/core/external";
import type { JWTPayload } from "jose";
import { child, externalUser, fullName, onlyEmail, text } from "../identity-data.js";
import { host, type ProviderDefinition } from "../provider-spec.js";

const APPLE_ISSUERS = ["https://appleid.apple.com", "https://account.apple.com"];

/**
 * Sign in with Apple: the person is only in the ID token (checked against Apple's keys), whose
 * address Apple has verified. Apple answers `/callback` with a form POST (`response_mode=form_post`)
 * and, on the first sign-in only, adds the person's name as a `user` form field.
 */
export const apple: ProviderDefinition = (base) => {
  const site = host(base, "appleid.apple.com");
  const fromIdToken = (claims: JWTPayload) => {
    const custom: Record<string, unknown> = {};
    const isPrivate = claims.is_private_email;
    if (isPrivate !== undefined) custom.is_private_email = isPrivate === true || isPrivate === "true";
    if (typeof claims.auth_time === "number") custom.auth_time = claims.auth_time;
    if (text(claims, "transfer_sub")) custom.transfer_sub = text(claims, "transfer_sub");
    return externalUser(
      {
        iss: claims.iss,
        sub: claims.sub ?? "",
        ...(Object.keys(custom).length > 0 ? { custom_claims: custom } : {}),
      },
      onlyEmail(text(claims, "email"), true),
    );
  };
  return {
    authorizationUrl: `${site}/auth/authorize`,
    tokenUrl: `${site}/auth/token`,
    scopes: ["email", "name"],
    authorizationParams: { response_mode: "form_post" },
    clientAuth: "post",
    fetchUser: async (calls) => fromIdToken(await calls.idTokenClaims()),
    idToken: {
      issuer: base === undefined ? APPLE_ISSUERS : site,
      jwksUrl: `${site}/auth/keys`,
      map: fromIdToken,
    },
    withCallbackUser(user: ExternalUser, formUser: string): ExternalUser {
      let parsed: unknown;
      try {
        parsed = JSON.parse(formUser);
      } catch {
        return user; // a malformed name is no reason to refuse a sign-in the ID token proved
      }
      const name = fullName(
        text(child(parsed, "name"), "firstName"),
        text(child(parsed, "name"), "lastName"),
      );
      if (name === "") return user;
      return { ...user, identityData: { ...user.identityData, name, full_name: name } };
    },
  };
};
