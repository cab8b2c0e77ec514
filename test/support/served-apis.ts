/**
 * The authsvc servers this test file started (server-process.ts) and the base paths each serves, so
 * that the answer check (openapi-fetch-check.ts) knows which answers are authsvc's.
 */
const DEFAULT_BASE_PATHS = ["/", "/auth/v1"];
const served = new Map<string, readonly string[]>();

/** Records a server listening at `url`, started with `env`. */
export function recordServer(url: string, env: Readonly<Record<string, string>>): void {
  const listed = env.AUTHSVC_API_BASE_PATHS ?? env.API_BASE_PATHS;
  const basePaths = listed
    ? listed
        .split(",")
        .map((p) => p.trim())
        .filter((p) => p !== "")
    : DEFAULT_BASE_PATHS;
  served.set(new URL(url).origin, basePaths);
}

/** The base paths of the server that answered at `url`, or undefined when it is not one of ours. */
export function serverBasePaths(url: string): readonly string[] | undefined {
  try {
    return served.get(new URL(url).origin);
  } catch {
    return undefined;
  }
}

/** The path the server routes `pathname` on: without the longest of `basePaths` it starts with (as `API_BASE_PATHS` strips them); undefined when none serves it. */
export function routedPath(pathname: string, basePaths: readonly string[]): string | undefined {
  const prefixes = basePaths
    .filter((p) => p !== "/")
    .map((p) => p.replace(/\/+$/, ""))
    .sort((a, b) => b.length - a.length);
  for (const prefix of prefixes) {
    if (pathname === prefix) return "/";
    if (pathname.startsWith(`${prefix}/`)) return pathname.slice(prefix.length);
  }
  return basePaths.includes("/") ? pathname : undefined;
}
