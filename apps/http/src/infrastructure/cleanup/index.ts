import { sectionOf } from "../../config/sections/section.js";
import type { HttpModule } from "../../modules/module.js";
import * as cleanup from "./section.js";

/** Cleanup: no routes, its configuration (the cleaner is started by the composition root). */
export const cleanupModule: HttpModule = {
  name: "cleanup",
  section: sectionOf(cleanup),
};
