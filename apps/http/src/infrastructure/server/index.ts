import * as general from "../../config/sections/general.js";
import { sectionOf } from "../../config/sections/section.js";
import type { HttpModule } from "../../modules/module.js";
import { healthEndpoint } from "./health.js";
import { readyEndpoint } from "./ready.js";
import { settingsEndpoint } from "./settings.js";
import { serverSettings } from "./settings-view.js";

/** The server itself: liveness, readiness and the public settings, with the general variables. */
export const serverModule: HttpModule = {
  name: "server",
  section: sectionOf(general),
  publicSettings: serverSettings,
  settings: (config) => general.redirectSettings(config),
  endpoints: [healthEndpoint, readyEndpoint, settingsEndpoint],
};
