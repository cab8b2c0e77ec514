import type { Hono } from "hono";
import { createHttpApp } from "../http/app.js";
import type { AppEnv } from "../http/app-env.js";
import { mountEndpoints } from "../http/endpoint.js";
import { httpGrantRegistry } from "../http/grants/http-grant.js";
import { type StatusTable, statusTable } from "../http/statuses.js";
import type { HttpModule, ModuleContext, ServerDeps } from "../modules/module.js";
import { MODULES } from "./modules.js";

// One table per module list: every app of the server shares the list, so it is built once.
const tables = new WeakMap<readonly HttpModule[], StatusTable>();
const tableOf = (modules: readonly HttpModule[]): StatusTable => {
  let table = tables.get(modules);
  if (table === undefined) {
    table = statusTable(modules);
    tables.set(modules, table);
  }
  return table;
};

/**
 * Builds the server's Hono application from `deps.modules` (every module of the list when absent):
 * their endpoints, guards and statuses. It does not listen; `server.ts` does, tests call `app.request()`.
 */
export function createApp(deps: ServerDeps): Hono<AppEnv> {
  const modules = deps.modules ?? MODULES;
  const ctx: ModuleContext = {
    ...deps,
    modules,
    grants: httpGrantRegistry(modules.flatMap((module) => module.grants ?? [])),
  };
  // Guards go only in front of the endpoints served: one switched off answers 404 as an unknown path.
  const { routes, served } = mountEndpoints(
    modules.flatMap((module) => module.endpoints ?? []),
    ctx,
  );
  return createHttpApp(deps, { statuses: tableOf(modules), endpoints: served, routes });
}
