/** An OAuth client of authsvc as an OAuth 2.1 server (a third-party app, a mobile app, an MCP client). */
export type ClientType = "public" | "confidential";
export type ClientAuthMethod = "none" | "client_secret_basic" | "client_secret_post";
export type OAuthGrantType = "authorization_code" | "refresh_token";

export const CLIENT_AUTH_METHODS: readonly ClientAuthMethod[] = [
  "client_secret_basic",
  "client_secret_post",
  "none",
];
export const OAUTH_GRANT_TYPES: readonly OAuthGrantType[] = ["authorization_code", "refresh_token"];

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
  readonly createdAt: Date;
  readonly updatedAt: Date;
}

/** Schemes a redirect URI may never use: they run code or read local data in the browser. */
const FORBIDDEN_SCHEMES = new Set(["javascript", "data", "file", "vbscript", "about", "blob"]);
const LOOPBACK_HOSTS = new Set(["localhost", "127.0.0.1", "[::1]"]);

/**
 * Why `uri` cannot be a redirect URI, or null when it can (the reference's `validateRedirectURI`): a
 * scheme and a host, no fragment, none of the schemes that run code, and plain `http` only on loopback.
 * Custom schemes (`myapp://callback`) are allowed for native apps.
 */
export function redirectUriProblem(uri: string): string | null {
  const scheme = /^([a-zA-Z][a-zA-Z0-9+.-]*):\/\/([^/?#]*)/.exec(uri);
  if (scheme === null || !scheme[1] || !scheme[2]) return "redirect URI must have a scheme and a host";
  const name = scheme[1].toLowerCase();
  if (FORBIDDEN_SCHEMES.has(name)) return `redirect URI scheme '${name}' is not allowed`;
  if (uri.includes("#")) return "fragment not allowed in redirect URI";
  if (/\s/.test(uri)) return "redirect URI must not contain whitespace";
  if (name === "http") {
    const host = scheme[2].replace(/^[^@]*@/, "").replace(/:\d*$/, "");
    if (!LOOPBACK_HOSTS.has(host.toLowerCase()))
      return "redirect URI with scheme 'http' is only allowed for localhost";
  }
  return null;
}

/** Whether `uri` is an absolute http(s) URL of at most `max` characters (client_uri, logo_uri). */
export function isHttpUrl(uri: string, max = 2048): boolean {
  return uri.length <= max && /^https?:\/\/[^/?#\s]+[^\s]*$/i.test(uri);
}
