import { isLoopbackHost, parseAbsoluteUrl } from "../kernel/index.js";

/** An OAuth client of authsvc as an OAuth 2.1 server (a third-party app, a mobile app, an MCP client). */
export type ClientType = "public" | "confidential";
export type ClientAuthMethod =
  | "none"
  | "client_secret_basic"
  | "client_secret_post"
  | "private_key_jwt"
  | "client_secret_jwt";
/** RFC 8628 §3.4: the device authorization grant's type at the token endpoint. */
export const DEVICE_CODE_GRANT_TYPE = "urn:ietf:params:oauth:grant-type:device_code";
/** RFC 8693's grant type: a token of a user exchanged for one an agent acts with (token-exchange.ts). */
export const TOKEN_EXCHANGE_GRANT = "urn:ietf:params:oauth:grant-type:token-exchange";
export type OAuthGrantType =
  | "authorization_code"
  | "refresh_token"
  | "client_credentials"
  | typeof DEVICE_CODE_GRANT_TYPE
  | typeof TOKEN_EXCHANGE_GRANT;

export const CLIENT_AUTH_METHODS: readonly ClientAuthMethod[] = [
  "client_secret_basic",
  "client_secret_post",
  "private_key_jwt",
  "client_secret_jwt",
  "none",
];

/** A JSON Web Key Set (RFC 7517 §5) of a client's public keys, as registered (`jwks`). */
export interface ClientJwks {
  readonly keys: readonly Readonly<Record<string, unknown>>[];
}
/** The grant types a client may be given. */
export const OAUTH_GRANT_TYPES: readonly OAuthGrantType[] = [
  "authorization_code",
  "refresh_token",
  "client_credentials",
  DEVICE_CODE_GRANT_TYPE,
  TOKEN_EXCHANGE_GRANT,
];
/** A client's grant types when its registration names none: never one only an admin may give. */
export const DEFAULT_GRANT_TYPES: readonly OAuthGrantType[] = ["authorization_code", "refresh_token"];
/** Grant types only an admin gives (a registration asking for one is refused). */
export const ADMIN_GRANT_TYPES: readonly OAuthGrantType[] = [TOKEN_EXCHANGE_GRANT];

export interface OAuthClient {
  /** A v4 UUID: the `client_id`. */
  readonly id: string;
  /** SHA-256 of the secret (`SecretTokens.hash`); null for a public client. */
  readonly secretHash: string | null;
  readonly registrationType: "dynamic" | "manual";
  readonly clientType: ClientType;
  readonly authMethod: ClientAuthMethod;
  readonly redirectUris: readonly string[];
  readonly grantTypes: readonly OAuthGrantType[];
  readonly name: string | null;
  readonly uri: string | null;
  readonly logoUri: string | null;
  /** `private_key_jwt`: the client's public keys, inline (RFC 7591 `jwks`); null or absent: none. */
  readonly jwks?: ClientJwks | null;
  /** `private_key_jwt`: where the client publishes its public keys (RFC 7591 `jwks_uri`). */
  readonly jwksUri?: string | null;
  /**
   * `client_secret_jwt`: the secret itself, sealed with the MFA secrets' box (bound to the client's
   * id), since the HMAC of an assertion is checked with it; null for every other method.
   */
  readonly secretSealed?: string | null;
  /** RFC 9126 §6: every authorization request of this client must be pushed first (`request_uri`). */
  readonly requirePushedAuthorizationRequests?: boolean;
  /**
   * RFC 9449 §5.2 `dpop_bound_access_tokens`: every token request of the client must carry a DPoP
   * proof, so all its tokens are bound to its key. Absent: false.
   */
  readonly dpopBoundAccessTokens?: boolean;
  /**
   * Token exchange (RFC 8693), set by an admin only: the audiences (`resource` URIs or `audience`
   * names) the client may exchange a user's token for; none: it may exchange for none.
   */
  readonly tokenExchangeAudiences?: readonly string[];
  /** Whether the client may ask for an impersonation token (no `act` claim) rather than a delegated one. */
  readonly tokenExchangeImpersonation?: boolean;
  /**
   * The scopes the client may ask for (RFC 7591 `scope`, space-separated): at `/oauth/authorize`, and
   * the scopes of its `client_credentials` tokens. Null: any scope the server supports (the code flow),
   * none (client_credentials).
   */
  readonly scope?: string | null;
  readonly createdAt: Date;
  readonly updatedAt: Date;
  /** Logout metadata (logout-metadata.ts); absent: none. */
  readonly postLogoutRedirectUris?: readonly string[];
  readonly backchannelLogoutUri?: string | null;
  readonly backchannelLogoutSessionRequired?: boolean;
  /**
   * A client whose `client_id` is a URL (a client ID metadata document): that URL, the id it goes by
   * everywhere outside storage (`id` stays the internal UUID requests, consents and sessions reference).
   * Its metadata is the document's, and `metadataExpiresAt` says when it must be fetched again.
   */
  readonly metadataUrl?: string | null;
  readonly metadataExpiresAt?: Date | null;
}

/** The `client_id` a client goes by: its metadata document's URL, else its UUID. */
export function clientIdOf(client: Pick<OAuthClient, "id" | "metadataUrl">): string {
  return client.metadataUrl ?? client.id;
}

/**
 * Schemes a redirect URI may never use: those that run code or read local data in the browser, and
 * those of other network protocols and of the browser itself, which are no native app's own (RFC 8252
 * §7.1); WHATWG's special schemes but https and http among them.
 */
const FORBIDDEN_SCHEMES = new Set([
  "javascript",
  "vbscript",
  "data",
  "file",
  "about",
  "blob",
  "filesystem",
  "view-source",
  "jar",
  "ftp",
  "ftps",
  "sftp",
  "ws",
  "wss",
  "gopher",
  "telnet",
  "ssh",
  "ldap",
  "ldaps",
  "smb",
  "nntp",
  "news",
  "irc",
  "mailto",
  "tel",
  "sms",
  "urn",
  "intent",
  "chrome",
  "chrome-extension",
  "moz-extension",
  "resource",
]);

/**
 * Why `uri` cannot be a redirect URI, or null when it can: https; http on the loopback only (RFC 8252
 * §7.3); or a native app's own scheme (`myapp://callback`, RFC 8252 §7.1); always with a host and
 * without a fragment. It is read by the kernel's strict parser, which refuses whatever a browser
 * could read otherwise than the check does — a backslash (WHATWG's URL reads `\` as `/`, so
 * `http://evil.test\@localhost/cb` is evil.test's), userinfo, control characters or whitespace,
 * encoded or numeric hosts — so the host checked is the host the code is sent to.
 */
export function redirectUriProblem(uri: string): string | null {
  const scheme = /^([a-zA-Z][a-zA-Z0-9+.-]*):\/\/([^/?#]*)/.exec(uri);
  if (scheme === null || !scheme[1] || !scheme[2]) return "redirect URI must have a scheme and a host";
  const name = scheme[1].toLowerCase();
  if (FORBIDDEN_SCHEMES.has(name)) return `redirect URI scheme '${name}' is not allowed`;
  if (uri.includes("#")) return "fragment not allowed in redirect URI";
  if (/\s/.test(uri)) return "redirect URI must not contain whitespace";
  if (uri.includes("\\")) return "redirect URI must not contain a backslash";
  const url = parseAbsoluteUrl(uri);
  if (url === null)
    return "redirect URI must read the same to every parser: no userinfo, control characters, encoded or numeric host";
  if (name === "http" && !isLoopbackHost(url.host))
    return "redirect URI with scheme 'http' is only allowed for localhost";
  return null;
}

/** Whether `uri` is an absolute http(s) URL of at most `max` characters (client_uri, logo_uri). */
export function isHttpUrl(uri: string, max = 2048): boolean {
  return uri.length <= max && /^https?:\/\/[^/?#\s]+[^\s]*$/i.test(uri);
}
