import { MODULES } from "../../composition/modules.js";
import { declaredRoutes } from "../declared-routes.js";
import type { Endpoint } from "./requests.js";

/**
 * Every route the app serves, as its endpoint declarations give it (http/endpoint.ts), without the
 * rest-of-path ones (`/*`), which the fuzzers cannot name; apps/http/src/fuzz.test.ts checks this
 * list against the app's own routes.
 */
export const ENDPOINTS: Endpoint[] = declaredRoutes(MODULES)
  .filter((route) => !route.path.includes("*"))
  .map(({ method, path }) => ({ method, path }));
