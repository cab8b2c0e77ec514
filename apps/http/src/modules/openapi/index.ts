import * as openapi from "../../config/sections/openapi.js";
import { sectionOf } from "../../config/sections/section.js";
import { openapiRoutes } from "../../routes/openapi.js";
import { openapiOperations } from "../../routes/openapi.openapi.js";
import type { HttpModule } from "../module.js";
import { routeFilesOf } from "../module.js";

/** The OpenAPI description of every module's operations, at `GET /openapi.json`. */
export const openapiModule: HttpModule = {
  name: "openapi",
  section: sectionOf(openapi),
  routes: (ctx) =>
    ctx.openapiEnabled === false ? routeFilesOf() : openapiRoutes(() => ctx.modules, ctx.version),
  operations: openapiOperations,
};
