import { sectionOf } from "../../config/sections/section.js";
import * as telemetry from "../../config/sections/telemetry.js";
import type { HttpModule } from "../module.js";

/** Logs, traces and metrics. */
export const telemetryModule: HttpModule = {
  name: "telemetry",
  section: sectionOf(telemetry),
};
