import type { CustomProvider } from "@authsvc/core/custom-providers";
import type { ExternalProvider, IdTokenVerifier } from "@authsvc/core/external";
import { idTokens } from "../external/id-token.js";
import { oauthProvider } from "../external/oauth-client.js";
import { isObject, PROVIDER_TIMEOUT_MS } from "../external/provider-call.js";
import type { ProviderSpec } from "../external/provider-spec.js";
import { customPerson } from "./custom-claims.js";

export interface CustomProviderCalls {
  /** The opened client secret. */
  readonly secret: string;
  /** `<CUSTOM_OAUTH_EXTERNAL_URL>/callback`. */
  readonly redirectUri: string;
  /** A guarded fetch (`guardedFetch`): every call the provider makes goes through it. */
  readonly fetch: typeof fetch;
  readonly timeoutMs?: number;
  readonly refetchCooldownMs?: number;
}

/** The endpoints of a stored provider: its own (oauth2) or its discovery document's (oidc). */
function endpointsOf(row: CustomProvider) {
  if (row.providerType === "oauth2") {
    return {
      authorization: row.authorizationUrl ?? "",
      token: row.tokenUrl ?? "",
      userinfo: row.userinfoUrl,
      jwks: row.jwksUri,
    };
  }
  const doc = row.discovery;
  if (doc === null) throw new Error(`${row.identifier}: no discovery document`);
  return {
    authorization: doc.authorization_endpoint,
    token: doc.token_endpoint,
    userinfo: doc.userinfo_endpoint ?? null,
    jwks: doc.jwks_uri,
  };
}

/**
 * An admin's provider, built from its row on the generic OAuth client the built-in providers run on:
 * authorization with the stored scopes (those of `/authorize?scopes=` replace them) and parameters,
 * S256 PKCE toward the provider when `pkce_enabled`, the code exchange with the secret in the form
 * body when the provider supports it (else HTTP Basic), then the person from the ID token (an OpenID
 * provider's, checked against its keys, issuer and audiences) or the user info endpoint.
 */
export function customExternalProvider(
  row: CustomProvider,
  calls: CustomProviderCalls,
): { provider: ExternalProvider; idTokenVerifier: IdTokenVerifier | null } {
  const endpoints = endpointsOf(row);
  const audiences = [row.clientId, ...row.acceptableClientIds];
  const authMethods = row.discovery?.token_endpoint_auth_methods_supported;
  const clientAuth = !authMethods || authMethods.includes("client_secret_post") ? "post" : "basic";
  const person = (raw: unknown) => customPerson(isObject(raw) ? raw : {}, row);
  const timeoutMs = calls.timeoutMs ?? PROVIDER_TIMEOUT_MS;
  const spec: ProviderSpec = {
    authorizationUrl: endpoints.authorization,
    tokenUrl: endpoints.token,
    scopes: row.scopes,
    requestScopesReplace: true,
    authorizationParams: row.authorizationParams,
    clientAuth,
    pkce: row.pkceEnabled,
    emailOptional: row.emailOptional,
    async fetchUser(userCalls) {
      if (userCalls.tokens.idToken && endpoints.jwks && row.providerType === "oidc") {
        return person(await userCalls.idTokenClaims());
      }
      if (!endpoints.userinfo) throw new Error("the provider has no user info endpoint");
      return person(await userCalls.getJson(endpoints.userinfo));
    },
    ...(endpoints.jwks
      ? {
          idToken: {
            issuer: row.providerType === "oidc" ? (row.issuer ?? "") : (iss: string) => iss !== "",
            jwksUrl: endpoints.jwks,
            map: (claims) => person(claims),
            ...(row.skipNonceCheck ? { skipNonceCheck: true } : {}),
            ...(row.emailOptional ? { emailOptional: true } : {}),
            grant: row.providerType === "oidc",
          },
        }
      : {}),
  };
  const verifier = spec.idToken
    ? idTokens(row.identifier, spec.idToken, {
        audiences,
        timeoutMs,
        fetch: calls.fetch,
        ...(calls.refetchCooldownMs === undefined ? {} : { refetchCooldownMs: calls.refetchCooldownMs }),
      })
    : null;
  const settings = {
    clientIds: [row.clientId],
    secret: calls.secret,
    redirectUri: calls.redirectUri,
    url: undefined,
    timeoutMs,
    fetch: calls.fetch,
  };
  return {
    provider: oauthProvider(row.identifier, spec, settings, verifier),
    idTokenVerifier: verifier && row.providerType === "oidc" ? verifier : null,
  };
}
