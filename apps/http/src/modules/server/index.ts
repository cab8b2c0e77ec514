import * as general from "../../config/sections/general.js";
import { sectionOf } from "../../config/sections/section.js";
import { healthRoutes } from "../../routes/health.js";
import { readyRoutes } from "../../routes/ready.js";
import { serverOperations } from "../../routes/server.openapi.js";
import { settingsRoutes } from "../../routes/settings.js";
import type { HttpModule } from "../module.js";
import { routeFilesOf } from "../module.js";

/** The server itself: liveness, readiness and the public settings, with the general variables. */
export const serverModule: HttpModule = {
  name: "server",
  section: sectionOf(general),
  settings: (config) => general.redirectSettings(config),
  routes: (ctx) =>
    routeFilesOf(
      healthRoutes(ctx.version),
      readyRoutes(ctx.readiness ?? [], ctx.readinessTimeoutMs, ctx.readinessWarnings),
      settingsRoutes(ctx.settings),
    ),
  operations: [...serverOperations],
};
