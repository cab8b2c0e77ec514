/** OAuth server: authsvc as an OAuth 2.1 / OpenID Connect provider for other apps and MCP clients. */
import type { AuthSettings } from "@authsvc/core";
import type { ClientMetadataDocumentSettings } from "@authsvc/core/oauth-server";
import * as k from "../../config/kinds.js";
import type { Reader } from "../../config/reader.js";
import type { SettleContext } from "../../config/sections/context.js";
import type { Config } from "../../config/shape.js";
import { defineVariables } from "../../config/variable.js";
import { variables as jwtVariables } from "../../infrastructure/jwt/section.js";

const variable = defineVariables("OAuth server");
export const variables = {
  enabled: variable({
    key: "OAUTH_SERVER_ENABLED",
    kind: k.boolean,
    default: "false",
    description:
      "Turns the OAuth 2.1 server on: `/oauth/authorize`, `/oauth/token`, the consent endpoints, `/oauth/userinfo`, client registration, `/user/oauth/grants`, `/admin/oauth/clients`, `/oauth/revoke`, `/oauth/introspect` and `/.well-known/oauth-authorization-server`. Off, they answer `404 feature_disabled`; `/.well-known/openid-configuration` is served either way. ID tokens (scope `openid`) need an asymmetric signing key in `JWT_KEYS`. See docs/oauth-server.md.",
  }),
  allowDynamicRegistration: variable({
    key: "OAUTH_SERVER_ALLOW_DYNAMIC_REGISTRATION",
    kind: k.boolean,
    default: "false",
    description:
      "Lets anyone register a client at `POST /oauth/clients/register` (RFC 7591), as MCP clients do; off, it answers `403 oauth_dynamic_client_registration_disabled`.",
  }),
  authorizationPath: variable({
    key: "OAUTH_SERVER_AUTHORIZATION_PATH",
    kind: k.text,
    default: "",
    description:
      "Path of the consent page on `SITE_URL`: `/oauth/authorize` sends the browser to `<SITE_URL><path>?authorization_id=<id>`. Empty: authsvc's hosted sign-in and consent pages at `/oauth/consent` (docs/oauth-hosted-pages.md), in every mode.",
  }),
  authorizationTtl: variable({
    key: "OAUTH_SERVER_AUTHORIZATION_TTL",
    kind: k.duration(1000),
    default: "10m",
    description:
      "How long an authorization request waits for the user's consent, and how long its code can then be exchanged (counted from the request).",
  }),
  defaultScope: variable({
    key: "OAUTH_SERVER_DEFAULT_SCOPE",
    kind: k.text,
    default: "email",
    description:
      "Scopes (space-separated, among `openid profile email phone offline_access` and the custom scopes of `/admin/oauth/scopes`) of a request that names none.",
  }),
  allowedResources: variable({
    key: "OAUTH_SERVER_ALLOWED_RESOURCES",
    kind: k.list,
    default: "",
    description:
      "The resources (RFC 8707) an authorization request may name, as comma-separated URI globs (`*` one host label or path segment, `**` anything: `https://mcp.example.com/**`); another is refused with `invalid_target`. Empty: any absolute URI, whose server will accept the client's tokens once the user approved it. An authsvc addition.",
  }),
  parTtl: variable({
    key: "OAUTH_SERVER_PAR_TTL",
    kind: k.duration(1000),
    default: "60s",
    description:
      "How long the `request_uri` of a pushed authorization request (`POST /oauth/par`, RFC 9126) can be used at `/oauth/authorize`; it is used once. See docs/oauth-client-authentication.md.",
  }),
  requirePar: variable({
    key: "OAUTH_SERVER_REQUIRE_PAR",
    kind: k.boolean,
    default: "false",
    description:
      "Every client must push its authorization requests first (RFC 9126 `require_pushed_authorization_requests`): `/oauth/authorize` without a `request_uri` is refused with `invalid_request`. Off, a client can still be required to by its own `require_pushed_authorization_requests`.",
  }),
  clientAssertionMaxLifetime: variable({
    key: "OAUTH_SERVER_CLIENT_ASSERTION_MAX_LIFETIME",
    kind: k.duration(1000),
    default: "5m",
    description:
      "The longest a client assertion (`private_key_jwt`, `client_secret_jwt`, RFC 7523) may live, from its `iat` (or now) to its `exp`; a longer one is refused. Its `jti` is remembered until it expires, so that it is used once.",
  }),
  allowLoopbackForTests: variable({
    key: "OAUTH_SERVER_ALLOW_LOOPBACK_FOR_TESTS",
    kind: k.boolean,
    default: "false",
    description:
      "FOR TESTS ONLY; never in production. Lets the URLs the OAuth server fetches (a client's `jwks_uri`) use plain `http:` toward loopback addresses, so that a test's server on 127.0.0.1 can serve them. Private, link-local, metadata and multicast addresses stay refused either way.",
  }),
  clientMetadataDocuments: variable({
    key: "OAUTH_SERVER_CLIENT_METADATA_DOCUMENTS",
    kind: k.boolean,
    default: "false",
    description:
      "Lets a client use an https URL as its `client_id` (an OAuth Client ID Metadata Document, the MCP authorization specification's preferred registration): the JSON at that URL is its metadata, fetched through the outbound guard (no private address, 8 KiB, 5 s, no redirect), validated and cached. Off by default: as dynamic registration, it lets anyone be a client without asking. The metadata says `client_id_metadata_document_supported` when on. See docs/oauth-client-metadata-documents.md.",
  }),
  clientMetadataAllowedHosts: variable({
    key: "OAUTH_SERVER_CLIENT_METADATA_ALLOWED_HOSTS",
    kind: k.list,
    default: "",
    description:
      "Host globs (comma-separated; `*` one label, `**` any run: `*.example.com`) a client's metadata document URL may name; another is refused with `invalid_client`. Empty: any public host.",
  }),
  clientMetadataCacheMin: variable({
    key: "OAUTH_SERVER_CLIENT_METADATA_CACHE_MIN",
    kind: k.duration(1000),
    default: "5m",
    description:
      "The least time a client metadata document is used before it is fetched again, whatever its `Cache-Control` says (`no-store` included): the floor that keeps a client from making the server fetch on every request.",
  }),
  clientMetadataCacheMax: variable({
    key: "OAUTH_SERVER_CLIENT_METADATA_CACHE_MAX",
    kind: k.duration(1000),
    default: "24h",
    description:
      "The most time a client metadata document is used before it is fetched again, whatever its `Cache-Control` says: how long a redirect URI its host withdrew may still be used at most.",
  }),
  clientCredentialsRole: variable({
    key: "OAUTH_SERVER_CLIENT_CREDENTIALS_ROLE",
    kind: k.text,
    default: "anon",
    description:
      "The `role` claim of a `client_credentials` token (a machine's: no user behind it), which row-level security reads. `anon` by default: a policy written for `authenticated` users must not open to every machine client, and `auth.uid()` is the client's id there, no user's. Set a database role of your own to give machines their policies; an admin role (`JWT_ADMIN_ROLES`) is refused.",
  }),
  refreshTokenNeedsOfflineAccess: variable({
    key: "OAUTH_SERVER_REFRESH_TOKEN_NEEDS_OFFLINE_ACCESS",
    kind: k.boolean,
    default: "false",
    description:
      "On: a code exchange answers a refresh token only when the scopes granted hold `offline_access` (OpenID Connect Core §11). Off: always, as the reference does. An authsvc addition.",
  }),
  dynamicRegistrationPer5Min: variable({
    key: "RATE_LIMIT_OAUTH_DYNAMIC_CLIENT_REGISTER",
    // The name the reference's configuration loader actually derives from its field (`O_AUTH`).
    aliases: ["AUTHSVC_RATE_LIMIT_O_AUTH_DYNAMIC_CLIENT_REGISTER"],
    kind: k.wholeNumber({ min: 1 }),
    default: "10",
    description:
      "`POST /oauth/clients/register` requests per 5 minutes per client address (30 at once), all instances together. Counted whether `RATE_LIMIT_HEADER` is set or not, unlike the reference's per-IP limits: each registration stores a client for good, for anyone who asks.",
  }),
};

export interface OAuthServerConfig {
  readonly enabled: boolean;
  readonly allowDynamicRegistration: boolean;
  readonly authorizationPath: string;
  readonly builtInConsentPage: boolean;
  readonly authorizationTtlSeconds: number;
  readonly defaultScope: string;
  readonly dynamicRegistrationPer5Min: number;
  readonly allowedResources: readonly string[];
  readonly parTtlSeconds: number;
  readonly requirePushedAuthorizationRequests: boolean;
  readonly clientAssertionMaxLifetimeSeconds: number;
  readonly allowLoopbackForTests: boolean;
  readonly clientMetadataDocuments: ClientMetadataDocumentSettings;
  readonly clientCredentialsRole: string;
  readonly refreshTokenNeedsOfflineAccess: boolean;
}

export const read = (r: Reader) => r.getAll(variables);

export function settle(s: ReturnType<typeof read>, ctx: SettleContext): { oauthServer: OAuthServerConfig } {
  if (s.enabled && !ctx.r.isSet(jwtVariables.keys))
    ctx.notices.push(
      `OAuth server on without ${jwtVariables.keys.name}: ID tokens (scope openid) need an asymmetric signing key, and code exchanges asking for one are refused (500 server_error)`,
    );
  if (s.allowLoopbackForTests)
    ctx.notices.push(
      `${variables.allowLoopbackForTests.name} is on: client jwks_uri may be fetched over plain http on loopback (for tests only)`,
    );
  const minCacheSeconds = Math.round(s.clientMetadataCacheMin / 1000);
  const jwtAdminRoles = ctx.r.get(jwtVariables.adminRoles);
  const role = s.clientCredentialsRole.trim();
  // A machine token with an admin role would bypass row-level security for every client granted it.
  if (role === "" || jwtAdminRoles.includes(role))
    ctx.r.problem(
      variables.clientCredentialsRole.name,
      "must be a role that is not one of JWT_ADMIN_ROLES (a client_credentials token is never an admin)",
    );
  return {
    oauthServer: {
      enabled: s.enabled,
      allowDynamicRegistration: s.allowDynamicRegistration,
      authorizationPath: s.authorizationPath,
      builtInConsentPage: s.authorizationPath === "",
      authorizationTtlSeconds: Math.max(1, Math.round(s.authorizationTtl / 1000)),
      defaultScope: s.defaultScope.split(/\s+/).filter(Boolean).join(" ") || "email",
      dynamicRegistrationPer5Min: s.dynamicRegistrationPer5Min,
      allowedResources: s.allowedResources,
      parTtlSeconds: Math.max(1, Math.round(s.parTtl / 1000)),
      requirePushedAuthorizationRequests: s.requirePar,
      clientAssertionMaxLifetimeSeconds: Math.max(1, Math.round(s.clientAssertionMaxLifetime / 1000)),
      allowLoopbackForTests: s.allowLoopbackForTests,
      clientMetadataDocuments: {
        enabled: s.clientMetadataDocuments,
        allowedHosts: s.clientMetadataAllowedHosts,
        minCacheSeconds,
        maxCacheSeconds: Math.max(minCacheSeconds, Math.round(s.clientMetadataCacheMax / 1000)),
        allowLoopbackForTests: s.allowLoopbackForTests,
      },
      clientCredentialsRole: role,
      refreshTokenNeedsOfflineAccess: s.refreshTokenNeedsOfflineAccess,
    },
  };
}

/** The OAuth server's settings, as the use cases read them. */
export function oauthServerSettings(config: Config): AuthSettings["oauthServer"] {
  const { allowLoopbackForTests: _loopback, ...settings } = config.oauthServer;
  return settings;
}

declare module "../../config/shape.js" {
  interface Config {
    readonly oauthServer: OAuthServerConfig;
  }
}
