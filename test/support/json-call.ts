/** What a JSON endpoint answered: its status, headers and parsed body (`{}` for an empty one). */
export interface JsonAnswer {
  status: number;
  headers: Headers;
  body: Record<string, unknown>;
}

/**
 * A caller of the server at `baseUrl()` (read at each call: the server starts after the module
 * loads) that sends and reads JSON.
 */
export function jsonCaller(baseUrl: () => string) {
  return async (
    method: string,
    path: string,
    body?: unknown,
    headers: Record<string, string> = {},
  ): Promise<JsonAnswer> => {
    const res = await fetch(`${baseUrl()}${path}`, {
      method,
      headers: { "content-type": "application/json", ...headers },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await res.text();
    return {
      status: res.status,
      headers: res.headers,
      body: text ? (JSON.parse(text) as Record<string, unknown>) : {},
    };
  };
}
