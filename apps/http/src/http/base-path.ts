import { getPath } from "hono/utils/url";

/** Where supabase-js looks for auth: `createClient(url, key)` calls `<url>/auth/v1/…`. */
export const DEFAULT_BASE_PATHS: readonly string[] = ["/", "/auth/v1"];

// Matches no route, so a request outside every base path is answered 404 by the app.
const UNSERVED = "/\0unserved";

/**
 * Hono's `getPath` for an API served under several base paths: `/auth/v1/token` routes as `/token`.
 * `/` among the paths serves the API at the root too; without it, only prefixed paths are served.
 * The longest matching prefix wins, so `/auth/v1` is stripped even when `/auth` is listed too.
 */
export function basePathGetter(basePaths: readonly string[]): (request: Request) => string {
  const root = basePaths.includes("/");
  const prefixes = basePaths
    .filter((p) => p !== "/")
    .map((p) => p.replace(/\/+$/, ""))
    .sort((a, b) => b.length - a.length);
  if (prefixes.length === 0) return (request) => getPath(request);
  return (request) => {
    const path = getPath(request);
    for (const prefix of prefixes) {
      if (path === prefix) return "/";
      if (path.startsWith(prefix) && path.charCodeAt(prefix.length) === 47) return path.slice(prefix.length);
    }
    return root ? path : UNSERVED;
  };
}
