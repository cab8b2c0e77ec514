/** The OAuth 2.1 server's settings (`OAUTH_SERVER_*`). */
export interface OAuthServerSettings {
  readonly enabled: boolean;
  readonly allowDynamicRegistration: boolean;
  /** Path of the consent page on SITE_URL; empty: the built-in page, or none. */
  readonly authorizationPath: string;
  /** Whether authsvc serves its own sign-in and consent page at `/oauth/consent` (embedded mode). */
  readonly builtInConsentPage: boolean;
  /** Lifetime of an authorization request and of its code, in seconds. */
  readonly authorizationTtlSeconds: number;
  /** Scopes used when a request names none. */
  readonly defaultScope: string;
  /** `POST /oauth/clients/register` requests per 5 minutes per client address (HTTP's limiter reads it). */
  readonly dynamicRegistrationPer5Min: number;
  /**
   * Globs (`*` one host label or path segment, `**` anything) of the resources (RFC 8707) a request
   * may name; empty: any absolute URI.
   */
  readonly allowedResources: readonly string[];
  /** Lifetime of a pushed authorization request's `request_uri` (RFC 9126), in seconds. */
  readonly parTtlSeconds: number;
  /** Every client must push its authorization requests (RFC 9126 §5 `require_pushed_authorization_requests`). */
  readonly requirePushedAuthorizationRequests: boolean;
  /** The longest a client assertion (RFC 7523) may live, from its `iat` (or now) to its `exp`, in seconds. */
  readonly clientAssertionMaxLifetimeSeconds: number;
  /**
   * The `role` of a `client_credentials` token (`OAUTH_SERVER_CLIENT_CREDENTIALS_ROLE`): what
   * row-level security sees for a machine; never an admin role.
   */
  readonly clientCredentialsRole: string;
  /**
   * Whether the code flow issues a refresh token only when `offline_access` was granted
   * (`OAUTH_SERVER_REFRESH_TOKEN_NEEDS_OFFLINE_ACCESS`); false: always, as the reference.
   */
  readonly refreshTokenNeedsOfflineAccess: boolean;
  /** Client ID metadata documents (a URL as `client_id`); absent: off. */
  readonly clientMetadataDocuments?: ClientMetadataDocumentSettings;
}

/** `OAUTH_SERVER_CLIENT_METADATA_*`: whether a URL may be a `client_id`, which, and how its document is cached. */
export interface ClientMetadataDocumentSettings {
  readonly enabled: boolean;
  /** Host globs (`*` one label, `**` anything) a client's URL may name; empty: any public host. */
  readonly allowedHosts: readonly string[];
  /** A document is cached at least this long (seconds), whatever its `Cache-Control` says … */
  readonly minCacheSeconds: number;
  /** … and at most this long. */
  readonly maxCacheSeconds: number;
  /** For tests only: `http://` URLs on the loopback (127.0.0.1, localhost, [::1]) are accepted. */
  readonly allowLoopbackForTests: boolean;
}

/** The device authorization grant's settings (RFC 8628, `OAUTH_DEVICE_*`). */
export interface OAuthDeviceSettings {
  /** Lifetime of a device request, its device code and its user code, in seconds (`expires_in`). */
  readonly codeTtlSeconds: number;
  /** The polling interval a device is first given, in seconds. */
  readonly intervalSeconds: number;
}

/** The slice's settings, as `AuthSettings` holds them. */
export interface OAuthServerSliceSettings {
  readonly oauthServer: OAuthServerSettings;
  readonly oauthDevice: OAuthDeviceSettings;
}
