import { AuthError, hasLoneSurrogate } from "@authsvc/core/kernel";
import type { Context } from "hono";
import { httpFailures } from "../http-failures.js";

/** The reference's request body limit: 1 MiB. */
export const MAX_BODY_BYTES = 1 << 20;

/**
 * Parses the request body as a JSON object. An empty body is `{}` (clients send none for some
 * calls); anything unparsable, or JSON that is not an object, is `400 bad_json`. A string or key
 * anywhere in it with a lone surrogate (the escape `"\ud800"`) is `400 validation_failed` naming
 * the field: no encoding can carry it to the database, a mail or a URL.
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
  const broken = loneSurrogateField(parsed);
  if (broken !== null) {
    throw new AuthError("validation_failed", `Invalid ${broken}: expected text without lone surrogates`);
  }
  return parsed as Record<string, unknown>;
}

/** The dotted path of the first string or key holding a lone surrogate, or null. */
function loneSurrogateField(body: object): string | null {
  const stack: { value: unknown; path: string }[] = [{ value: body, path: "" }];
  while (stack.length > 0) {
    const { value, path } = stack.pop() as { value: unknown; path: string };
    if (typeof value === "string") {
      if (hasLoneSurrogate(value)) return path;
      continue;
    }
    if (value === null || typeof value !== "object") continue;
    for (const [key, inner] of Object.entries(value)) {
      const at = path === "" ? key : `${path}.${key}`;
      if (hasLoneSurrogate(key)) return path === "" ? "body" : path;
      stack.push({ value: inner, path: at });
    }
  }
  return null;
}
