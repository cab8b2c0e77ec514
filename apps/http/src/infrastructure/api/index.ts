import { sectionOf } from "../../config/sections/section.js";
import type { HttpModule } from "../../modules/module.js";
import * as api from "./section.js";

/** The API's request handling: base paths, proxies, body and request limits. */
export const apiModule: HttpModule = {
  name: "api",
  section: sectionOf(api),
};
