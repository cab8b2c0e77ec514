import type { JWTPayload } from "jose";
import { externalUser, flag, onlyEmail, text } from "../identity-data.js";
import { host, type ProviderDefinition } from "../provider-spec.js";

// OpenID standard claims an ID token carries into identity_data as they are (the reference's generic mapping).
const STANDARD = (
  "iss sub name family_name given_name middle_name nickname preferred_username profile picture website " +
  "gender birthdate zoneinfo locale phone"
).split(" ");
const MAPPED_FROM_USER_INFO = new Set(["name", "sub", "email", "email_verified"]);

/**
 * Keycloak: always self-hosted, so `EXTERNAL_KEYCLOAK_URL` (the realm's URL,
 * `https://<host>/realms/<realm>`) is required. The person from the OpenID user info endpoint; every
 * claim beyond name, sub and email goes to custom_claims. Its ID tokens are accepted at the id_token grant.
 */
export const keycloak: ProviderDefinition = (base) => {
  if (base === undefined) throw new Error("keycloak: EXTERNAL_KEYCLOAK_URL (the realm's URL) is required");
  const realm = host(base, "");
  const oidc = `${realm}/protocol/openid-connect`;
  return {
    authorizationUrl: `${oidc}/auth`,
    tokenUrl: `${oidc}/token`,
    scopes: ["profile", "email"],
    clientAuth: "post",
    async fetchUser(calls) {
      const user = await calls.getJson(`${oidc}/userinfo`);
      const raw = typeof user === "object" && user !== null ? (user as Record<string, unknown>) : {};
      const custom = Object.fromEntries(
        Object.entries(raw).filter(([key]) => !MAPPED_FROM_USER_INFO.has(key)),
      );
      return externalUser(
        {
          iss: realm,
          sub: text(user, "sub"),
          name: text(user, "name"),
          email: text(user, "email"),
          custom_claims: custom,
          full_name: text(user, "name"),
        },
        onlyEmail(text(user, "email"), flag(user, "email_verified")),
      );
    },
    idToken: {
      issuer: realm,
      jwksUrl: `${oidc}/certs`,
      map: (claims: JWTPayload) =>
        externalUser(
          {
            ...Object.fromEntries(STANDARD.filter((k) => claims[k] !== undefined).map((k) => [k, claims[k]])),
            sub: claims.sub ?? "",
            email: text(claims, "email"),
          },
          onlyEmail(text(claims, "email"), flag(claims, "email_verified")),
        ),
    },
  };
};
