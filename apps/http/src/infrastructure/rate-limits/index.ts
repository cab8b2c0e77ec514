import { sectionOf } from "../../config/sections/section.js";
import type { HttpModule } from "../../modules/module.js";
import * as rateLimits from "./section.js";

/** Per-IP request limits. */
export const rateLimitsModule: HttpModule = {
  name: "rate-limits",
  section: sectionOf(rateLimits),
  statuses: {
    over_request_rate_limit: 429,
  },
};
