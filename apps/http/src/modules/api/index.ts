import * as api from "../../config/sections/api.js";
import { sectionOf } from "../../config/sections/section.js";
import type { HttpModule } from "../module.js";

/** The API's request handling: base paths, proxies, body and request limits. */
export const apiModule: HttpModule = {
  name: "api",
  section: sectionOf(api),
};
