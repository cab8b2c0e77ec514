import * as openapi from "../../config/sections/openapi.js";
import { sectionOf } from "../../config/sections/section.js";
import { openapiRoutes } from "../../routes/openapi.js";
import { openapiOperations } from "../../routes/openapi.openapi.js";
import { MODULES } from "../index.js";
import type { HttpModule } from "../module.js";
import { routesOf } from "../module.js";

/** The OpenAPI description of every module's operations, at `GET /openapi.json`. */
export const openapiModule: HttpModule = {
  name: "openapi",
  section: sectionOf(openapi),
  // The list is read when the routes are built, not at import: it holds this module too.
  routes: (ctx) =>
    ctx.openapiEnabled === false
      ? routesOf()
      : routesOf(openapiRoutes(() => ctx.modules ?? MODULES, ctx.version)),
  operations: openapiOperations,
};
