import type { Metadata } from "./user.js";

/** Sets an own, enumerable data property — even for "__proto__", which `obj[key] = v` would not. */
function put(target: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}

/**
 * `current` updated by `patch` the way GoTrue's `UpdateUserMetaData` does: a shallow merge in which
 * a `null` value deletes the key. Returns a new plain object; neither input is modified. Keys are
 * copied as own data properties, so a `"__proto__"` key from a JSON body stays a key and never
 * changes the result's prototype.
 */
export function mergeMetadata(current: Metadata, patch: Readonly<Record<string, unknown>>): Metadata {
  const merged: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(current)) put(merged, key, value);
  for (const [key, value] of Object.entries(patch)) {
    if (value === null) delete merged[key];
    else put(merged, key, value);
  }
  return merged;
}
