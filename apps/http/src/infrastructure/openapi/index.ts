import { sectionOf } from "../../config/sections/section.js";
import type { HttpModule } from "../../modules/module.js";
import { openapiEndpoint } from "./openapi.js";
import * as openapi from "./section.js";

/** The OpenAPI description of every module's operations, at `GET /openapi.json`. */
export const openapiModule: HttpModule = {
  name: "openapi",
  section: sectionOf(openapi),
  endpoints: [openapiEndpoint],
};
