import type { ClientMetadataDocuments, FetchedClientDocument } from "@authsvc/core/oauth-server";

/** The largest document read: 8 KiB (the draft suggests 5 KB; a client's metadata here is far smaller). */
export const CLIENT_DOCUMENT_MAX_BYTES = 8 * 1024;
/** How long a fetch may take, the whole body included. */
export const CLIENT_DOCUMENT_TIMEOUT_MS = 5_000;

/** `Cache-Control`'s freshness in seconds: 0 for `no-store` or `no-cache`, `max-age`, else null. */
export function maxAgeOf(header: string | null): number | null {
  if (header === null) return null;
  const directives = header
    .toLowerCase()
    .split(",")
    .map((d) => d.trim());
  if (directives.some((d) => d === "no-store" || d === "no-cache")) return 0;
  for (const d of directives) {
    const m = /^max-age\s*=\s*"?(\d{1,10})"?$/.exec(d);
    if (m?.[1]) return Number(m[1]);
  }
  return null;
}

/**
 * Client ID metadata documents fetched with `fetchImpl`, which must be the guarded fetch
 * (adapters/src/net: no private or metadata address, the answer cut off past its size): this adds
 * no redirect followed (a 3xx is refused: the document is the URL's, not another's), a time limit on
 * the whole exchange, a JSON content type, and one fetch at a time per URL on this instance.
 */
export function clientMetadataDocuments(
  fetchImpl: typeof fetch,
  options: { readonly timeoutMs?: number } = {},
): ClientMetadataDocuments {
  const timeoutMs = options.timeoutMs ?? CLIENT_DOCUMENT_TIMEOUT_MS;
  const inFlight = new Map<string, Promise<FetchedClientDocument>>();
  const fetchOnce = async (url: string): Promise<FetchedClientDocument> => {
    try {
      const response = await fetchImpl(url, {
        redirect: "manual",
        headers: { accept: "application/json" },
        signal: AbortSignal.timeout(timeoutMs),
      });
      if (response.status >= 300 && response.status < 400) {
        void response.body?.cancel();
        return { ok: false, problem: `the document's URL answered a redirect (${response.status})` };
      }
      if (response.status !== 200) {
        void response.body?.cancel();
        return { ok: false, problem: `the document's URL answered ${response.status}` };
      }
      const type = response.headers.get("content-type") ?? "";
      if (!/^application\/([a-z0-9.+-]+\+)?json\b/i.test(type)) {
        void response.body?.cancel();
        return { ok: false, problem: "the document is not served as application/json" };
      }
      const text = await response.text();
      let document: unknown;
      try {
        document = JSON.parse(text);
      } catch {
        return { ok: false, problem: "the document is not valid JSON" };
      }
      return { ok: true, document, maxAgeSeconds: maxAgeOf(response.headers.get("cache-control")) };
    } catch (error) {
      return { ok: false, problem: reasonOf(error, timeoutMs) };
    }
  };
  return {
    fetch(url) {
      const running = inFlight.get(url);
      if (running) return running;
      const started = fetchOnce(url).finally(() => inFlight.delete(url));
      inFlight.set(url, started);
      return started;
    },
  };
}

/** Why a fetch failed, in words safe to answer a client: the guard's refusal, the limit, or the network. */
function reasonOf(error: unknown, timeoutMs: number): string {
  const seen = new Set<unknown>();
  let current = error;
  while (current instanceof Error && !seen.has(current)) {
    seen.add(current);
    if (current.name === "OutboundRefused") return current.message;
    if (current.name === "TimeoutError" || current.name === "AbortError")
      return `no answer within ${timeoutMs / 1000} seconds`;
    current = (current as { cause?: unknown }).cause;
  }
  return "the document's server could not be reached";
}
