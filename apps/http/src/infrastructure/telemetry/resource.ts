/**
 * `OTEL_RESOURCE_ATTRIBUTES` (`key=value,…`, values percent-encoded) as attributes; a malformed
 * entry is left out, as the SDK's own reading does.
 */
export function parseResourceAttributes(text: string | undefined): Record<string, string> {
  const attributes: Record<string, string> = {};
  for (const entry of (text ?? "").split(",")) {
    const at = entry.indexOf("=");
    if (at <= 0) continue;
    const key = entry.slice(0, at).trim();
    try {
      attributes[key] = decodeURIComponent(entry.slice(at + 1).trim());
    } catch {
      // Not valid percent-encoding: skipped.
    }
  }
  return attributes;
}
