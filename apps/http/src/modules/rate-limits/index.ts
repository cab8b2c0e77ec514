import * as rateLimits from "../../config/sections/rate-limits.js";
import { sectionOf } from "../../config/sections/section.js";
import type { HttpModule } from "../module.js";

/** Per-IP request limits. */
export const rateLimitsModule: HttpModule = {
  name: "rate-limits",
  section: sectionOf(rateLimits),
  statuses: {
    over_request_rate_limit: 429,
  },
};
