import type { Span } from "@opentelemetry/api";

/**
 * Outbound URLs are configured ones (SMS gateways, mail templates); a signed template URL carries its
 * credentials in the query string, so the query of an outbound call is never recorded.
 */
export function withoutQuery(span: Span, request: { origin: string; path: string }): void {
  const at = request.path.indexOf("?");
  if (at < 0) return;
  span.setAttribute("url.full", `${request.origin}${request.path.slice(0, at)}`);
  span.setAttribute("url.query", "REDACTED");
}
