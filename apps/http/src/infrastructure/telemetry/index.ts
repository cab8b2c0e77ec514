import { sectionOf } from "../../config/sections/section.js";
import type { HttpModule } from "../../modules/module.js";
import * as telemetry from "./section.js";

/** Logs, traces and metrics. */
export const telemetryModule: HttpModule = {
  name: "telemetry",
  section: sectionOf(telemetry),
};
