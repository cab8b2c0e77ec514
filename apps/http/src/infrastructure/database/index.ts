import * as db from "../../config/sections/db.js";
import { sectionOf } from "../../config/sections/section.js";
import type { HttpModule } from "../../modules/module.js";

/** The database: its connection, or the embedded one. */
export const databaseModule: HttpModule = {
  name: "database",
  section: sectionOf(db),
  failureStatuses: {
    // A restart or a killed backend is not a bug: a retryable 503 while the pool reconnects.
    databaseUnavailable: 503,
  },
};
