/**
 * `url` with `params` merged into its query (RFC 3986 percent-encoding), keeping what it had: a
 * redirect URI may carry a query of its own, which the client registered and expects back.
 */
export function withQuery(url: string, params: Readonly<Record<string, string>>): string {
  const hash = url.indexOf("#");
  const base = hash === -1 ? url : url.slice(0, hash);
  const added = Object.entries(params)
    .map(([key, value]) => `${encodeURIComponent(key)}=${encodeURIComponent(value)}`)
    .join("&");
  if (added === "") return base;
  const separator = base.includes("?") ? (base.endsWith("?") || base.endsWith("&") ? "" : "&") : "?";
  return `${base}${separator}${added}`;
}

/**
 * The authorization server's issuer identifier: `JWT_ISSUER`, else the API's external URL. The
 * metadata's `issuer`, ID tokens' `iss` and the `iss` of every authorization response (RFC 9207) are
 * this one string, so a client can tell which server answered (mix-up attacks, RFC 9700 §4.4).
 */
export function issuerOf(settings: {
  readonly jwt: { readonly issuer?: string | undefined };
  readonly apiExternalUrl: string;
}): string {
  return settings.jwt.issuer || settings.apiExternalUrl;
}
