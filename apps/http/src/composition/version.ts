import { readFileSync } from "node:fs";

/**
 * The version of authsvc, from this package's package.json (apps/http's in the repository, the same
 * path from src/ and dist/; kept at the root's version, which `npm run pack` checks).
 */
export function readVersion(): string {
  const url = new URL("../../package.json", import.meta.url);
  try {
    const parsed = JSON.parse(readFileSync(url, "utf8")) as { version?: unknown };
    return typeof parsed.version === "string" ? parsed.version : "unknown";
  } catch {
    return "unknown";
  }
}
