import { sectionOf } from "../../config/sections/section.js";
import type { HttpModule } from "../../modules/module.js";
import * as hooks from "./section.js";

/** Hooks: the server's calls out at points of a flow. */
export const hooksModule: HttpModule = {
  name: "hooks",
  section: sectionOf(hooks),
  statuses: {
    hook_timeout: 422,
    hook_timeout_after_retry: 422,
    hook_payload_invalid_content_type: 400,
    hook_payload_over_size_limit: 422,
  },
};
