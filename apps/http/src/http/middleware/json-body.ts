import type { Context } from "hono";
import { httpFailures } from "../http-failures.js";

/** The reference's request body limit: 1 MiB. */
export const MAX_BODY_BYTES = 1 << 20;

/**
 * Parses the request body as a JSON object. An empty body is `{}` (clients send none for some
 * calls); anything unparsable, or JSON that is not an object, is `400 bad_json`.
 */
export async function readJsonObject(c: Context): Promise<Record<string, unknown>> {
  const text = await c.req.text();
  if (text.trim() === "") return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (cause) {
    throw httpFailures.badJson((cause as Error).message);
  }
  if (parsed === null || typeof parsed !== "object" || Array.isArray(parsed)) {
    throw httpFailures.badJson("expected an object");
  }
  return parsed as Record<string, unknown>;
}
