import { routeMethod, routePath } from "../http/endpoint.js";
import type { HttpModule } from "../modules/module.js";

/** A route as Hono serves it: `POST`, `/factors/:factor_id/verify`. */
export interface Route {
  readonly method: string;
  readonly path: string;
}

const key = (route: Route) => `${route.method} ${route.path}`;

/** Every route `modules` declare as endpoints (http/endpoint.ts), in their order. */
export function declaredRoutes(modules: readonly HttpModule[]): Route[] {
  return modules.flatMap((module) =>
    (module.endpoints ?? []).map(({ operation }) => ({
      method: routeMethod(operation),
      path: routePath(operation),
    })),
  );
}

/**
 * The routes `app` serves that no endpoint of `modules` declares: a handler mounted past the
 * declarations, which neither the OpenAPI description, the fuzzers nor the guards would know of.
 * The middleware every request goes through (`app.use(handler)`: `ALL /*`) is not a route; an `ALL`
 * entry at any other path is (`app.all`), or a guard put on a path outside its endpoint (`app.use(path)`).
 */
export function undeclaredRoutes(
  app: { readonly routes: readonly Route[] },
  modules: readonly HttpModule[],
): Route[] {
  const declared = new Set(declaredRoutes(modules).map(key));
  const undeclared = new Map<string, Route>();
  for (const route of app.routes) {
    if ((route.method === "ALL" && route.path === "/*") || declared.has(key(route))) continue;
    undeclared.set(key(route), { method: route.method, path: route.path });
  }
  return [...undeclared.values()];
}
