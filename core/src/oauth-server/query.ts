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
