export interface GatewayAnswer {
  readonly status: number;
  /** The parsed JSON body; undefined when the body is not JSON. */
  readonly json: unknown;
}

export interface GatewayRequest {
  readonly url: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string;
  readonly timeoutMs: number;
}

/**
 * POSTs to a gateway and reads its whole answer within `timeoutMs`. Throws an `Error` whose message
 * says what went wrong on the wire (refused, reset, timed out) and never carries the request, whose
 * headers or body hold the credentials.
 */
export async function postToGateway(req: GatewayRequest): Promise<GatewayAnswer> {
  try {
    // undici is loaded on the first message, not at start: most deployments never send an SMS.
    const { request } = await import("undici");
    const res = await request(req.url, {
      method: "POST",
      headers: req.headers,
      body: req.body,
      signal: AbortSignal.timeout(req.timeoutMs),
      headersTimeout: req.timeoutMs,
      bodyTimeout: req.timeoutMs,
    });
    const text = await res.body.text();
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      json = undefined;
    }
    return { status: res.statusCode, json };
  } catch (error) {
    throw new Error(wireFailure(error, req.timeoutMs));
  }
}

function wireFailure(error: unknown, timeoutMs: number): string {
  if (!(error instanceof Error)) return "request failed";
  if (error.name === "TimeoutError" || error.name === "AbortError" || /timeout/i.test(error.name)) {
    return `no answer within ${timeoutMs} ms`;
  }
  const code = (error as { code?: unknown }).code;
  return error.message || (typeof code === "string" ? code : "request failed");
}

/** A string field of a parsed JSON object, or undefined. */
export function stringField(value: unknown, key: string): string | undefined {
  if (value === null || typeof value !== "object") return undefined;
  const field = (value as Record<string, unknown>)[key];
  return typeof field === "string" ? field : typeof field === "number" ? String(field) : undefined;
}

/** The first element of an array field of a parsed JSON object, or undefined. */
export function firstOf(value: unknown, key: string): unknown {
  if (value === null || typeof value !== "object") return undefined;
  const field = (value as Record<string, unknown>)[key];
  return Array.isArray(field) ? field[0] : undefined;
}

/** Joins a base URL (possibly with a path, with or without a trailing slash) and an API path. */
export function joinUrl(baseUrl: string, path: string): string {
  return `${baseUrl.replace(/\/+$/, "")}${path}`;
}
