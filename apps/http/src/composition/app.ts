import type { Hono } from "hono";
import { createHttpApp } from "../http/app.js";
import type { AppEnv } from "../http/app-env.js";
import { routesOf } from "../http/endpoint.js";
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
  const endpoints = modules.flatMap((module) => module.endpoints ?? []);
  return createHttpApp(deps, { statuses: tableOf(modules), endpoints, routes: routesOf(endpoints, ctx) });
}
