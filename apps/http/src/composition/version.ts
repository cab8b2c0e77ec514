import { readFileSync } from "node:fs";

/** The version of authsvc, from the root package.json (the same path from src/ and dist/). */
export function readVersion(): string {
  const url = new URL("../../../../package.json", import.meta.url);
  try {
    const parsed = JSON.parse(readFileSync(url, "utf8")) as { version?: unknown };
    return typeof parsed.version === "string" ? parsed.version : "unknown";
  } catch {
    return "unknown";
  }
}
