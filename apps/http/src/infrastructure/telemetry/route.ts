import type { Context } from "hono";
import { matchedRoutes } from "hono/route";

/**
 * The route that answered the request, as OpenTelemetry writes it (`/admin/users/{user_id}`), or
 * undefined when none did (404, or a refusal by a middleware mounted on every path). Middleware is
 * registered for every method ("ALL"); the handler's route is the last one with a method.
 */
export function routeTemplate(c: Context): string | undefined {
  const routes = matchedRoutes(c);
  for (let i = routes.length - 1; i >= 0; i--) {
    const route = routes[i];
    if (route !== undefined && route.method !== "ALL")
      return route.path.replace(/:(\w+)(\{[^}]*\})?/g, "{$1}");
  }
  return undefined;
}

/** One `http.route.params.<key>` attribute per route parameter (identifiers, never secrets). */
export function routeParamAttributes(c: Context): Record<string, string> {
  const attributes: Record<string, string> = {};
  for (const [key, value] of Object.entries(c.req.param() as Record<string, string>)) {
    attributes[`http.route.params.${key}`] = value;
  }
  return attributes;
}
