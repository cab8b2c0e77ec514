import * as cleanup from "../../config/sections/cleanup.js";
import { sectionOf } from "../../config/sections/section.js";
import type { HttpModule } from "../module.js";

/** Cleanup: no routes, its configuration (the cleaner is started by the composition root). */
export const cleanupModule: HttpModule = {
  name: "cleanup",
  section: sectionOf(cleanup),
};
