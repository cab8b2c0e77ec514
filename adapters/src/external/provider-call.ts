import {
  allowInsecureRequests,
  customFetch,
  type HttpRequestOptions,
  protectedResourceRequest,
} from "oauth4webapi";

/** How long a provider has to answer one request (the reference's default, 10 s). */
export const PROVIDER_TIMEOUT_MS = 10_000;

/**
 * A provider answered with an error, an unreadable body, or not at all. The message says what, in the
 * provider's words where it gave some, for logs; it never carries a credential (see `redact`).
 */
export class ProviderCallError extends Error {
  override readonly name = "ProviderCallError";
}

/**
 * The request options every call to a provider runs with: undici's fetch (Node's), a timeout on the
 * whole exchange, and plain `http:` allowed, because the endpoints come from the operator's
 * configuration (`EXTERNAL_<P>_URL` may name a provider on a private network, or a loopback fake).
 * Providers an admin adds at runtime pass a guarded `fetchImpl` instead (`guardedFetch`).
 */
export function requestOptions<M extends string, B>(
  timeoutMs: number,
  fetchImpl: typeof fetch = fetch,
): HttpRequestOptions<M, B> {
  return {
    [customFetch]: (url, init) => fetchImpl(url, init as Parameters<typeof fetch>[1]),
    [allowInsecureRequests]: true,
    signal: () => AbortSignal.timeout(timeoutMs),
  };
}

/** Reads a response body as JSON; undefined when it is not JSON. Fails only when the body never arrives. */
export async function jsonBody(response: Response): Promise<unknown> {
  const text = await response.text();
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/** The provider's own words for a failed answer: its `error` and `error_description` (or `message`), else the status. */
export function providerReason(status: number, body: unknown): string {
  const field = (key: string): string | undefined => {
    const value = isObject(body) ? body[key] : undefined;
    return typeof value === "string" && value !== "" ? value : undefined;
  };
  // Facebook and Spotify nest their error: {"error": {"message": …}}.
  const nested = isObject(body) && isObject(body.error) ? body.error.message : undefined;
  const error = field("error");
  const description =
    field("error_description") ??
    field("message") ??
    field("reason") ??
    field("msg") ??
    (typeof nested === "string" ? nested : undefined);
  const words = [error, description].filter((w) => w !== undefined).join(": ");
  return words === "" ? `HTTP ${status}` : `HTTP ${status}: ${words}`;
}

/**
 * GETs a JSON resource with the access token as a Bearer token (plus any headers the provider wants,
 * such as Twitch's `Client-Id`), and returns the parsed body of a 2xx answer.
 */
export async function getJson(
  url: string,
  accessToken: string,
  timeoutMs: number,
  headers: Readonly<Record<string, string>> = {},
  fetchImpl: typeof fetch = fetch,
): Promise<unknown> {
  const response = await protectedResourceRequest(
    accessToken,
    "GET",
    new URL(url),
    new Headers({ accept: "application/json", ...headers }),
    null,
    requestOptions(timeoutMs, fetchImpl),
  );
  const body = await jsonBody(response);
  if (response.status < 200 || response.status > 299) {
    throw new ProviderCallError(`${new URL(url).pathname}: ${providerReason(response.status, body)}`);
  }
  if (body === undefined) throw new ProviderCallError(`${new URL(url).pathname}: the answer is not JSON`);
  return body;
}

export function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

/** What went wrong on the wire, in words fit for a log line. */
export function wireReason(error: unknown, timeoutMs: number): string {
  if (error instanceof ProviderCallError) return error.message;
  if (!(error instanceof Error)) return "request failed";
  if (error.name === "TimeoutError" || error.name === "AbortError") return `no answer within ${timeoutMs} ms`;
  // fetch wraps the socket error ("ECONNREFUSED", "other side closed") in its cause.
  const cause = (error as { cause?: unknown }).cause;
  const detail = cause instanceof Error ? ((cause as { code?: string }).code ?? cause.message) : undefined;
  return detail ? `${error.message} (${detail})` : error.message;
}

/** Blanks secrets out of a text that may echo them. */
export function redact(text: string, secrets: readonly string[]): string {
  let out = text;
  for (const secret of secrets) if (secret) out = out.split(secret).join("[redacted]");
  return out;
}
