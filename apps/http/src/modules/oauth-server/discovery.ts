import { type AuthDeps, OAUTH_SCOPES } from "@authsvc/core";
import { type Context, Hono } from "hono";
import type { AppEnv } from "../../http/app-env.js";
import { endpoint, issuerOf, requireOAuthServer } from "./oauth-http.js";

const CLAIMS = [
  "sub",
  "aud",
  "iss",
  "exp",
  "iat",
  "auth_time",
  "nonce",
  "email",
  "email_verified",
  "phone_number",
  "phone_number_verified",
  "name",
  "picture",
  "preferred_username",
  "updated_at",
];

/** The authorization server's metadata (RFC 8414), which is also its OpenID Provider metadata. */
export function discoveryDocument(deps: AuthDeps) {
  const { enabled, allowDynamicRegistration } = deps.settings.oauthServer;
  const at = (path: string) => endpoint(deps, path);
  const clientAuth = ["client_secret_basic", "client_secret_post"];
  return {
    issuer: issuerOf(deps),
    authorization_endpoint: at("/oauth/authorize"),
    token_endpoint: at("/oauth/token"),
    jwks_uri: at("/.well-known/jwks.json"),
    userinfo_endpoint: at("/oauth/userinfo"),
    ...(enabled && allowDynamicRegistration ? { registration_endpoint: at("/oauth/clients/register") } : {}),
    revocation_endpoint: at("/oauth/revoke"),
    revocation_endpoint_auth_methods_supported: [...clientAuth, "none"],
    introspection_endpoint: at("/oauth/introspect"),
    introspection_endpoint_auth_methods_supported: clientAuth,
    scopes_supported: OAUTH_SCOPES,
    response_types_supported: ["code"],
    response_modes_supported: ["query"],
    grant_types_supported: ["authorization_code", "refresh_token"],
    subject_types_supported: ["public"],
    id_token_signing_alg_values_supported: ["RS256", "ES256", "RS512", "ES512", "EdDSA"],
    token_endpoint_auth_methods_supported: [...clientAuth, "none"],
    code_challenge_methods_supported: ["S256"],
    claims_supported: CLAIMS,
    authorization_response_iss_parameter_supported: false,
  };
}

/**
 * `/.well-known/openid-configuration` (always served, as the reference) and
 * `/.well-known/oauth-authorization-server` (only with the server on), each also in RFC 8414's
 * path-insertion form (`/.well-known/oauth-authorization-server/auth/v1` for an issuer under `/auth/v1`).
 */
export const discoveryRoutes = (deps: AuthDeps) => {
  const answer = (c: Context<AppEnv>) => {
    c.header("Cache-Control", "public, max-age=600");
    return c.json(discoveryDocument(deps));
  };
  const gate = requireOAuthServer(deps);
  return new Hono<AppEnv>()
    .get("/.well-known/openid-configuration", answer)
    .get("/.well-known/openid-configuration/*", answer)
    .get("/.well-known/oauth-authorization-server", gate, answer)
    .get("/.well-known/oauth-authorization-server/*", gate, answer);
};
