import { sectionOf } from "../../config/sections/section.js";
import { smsWithHooks } from "../../infrastructure/hooks/dispatcher.js";
import { smsSenderOf } from "../../wiring/sms-sender.js";
import type { HttpModule } from "../module.js";
import * as sms from "./section.js";

/** SMS: the gateways and the send limits. */
export const smsModule: HttpModule = {
  name: "sms",
  section: sectionOf(sms),
  ports: ({ config, shared }) => ({ sms: smsWithHooks(shared.hooks, smsSenderOf(config)) }),
  settings: (config) => ({ sms: sms.smsSettings(config) }),
  statuses: {
    sms_send_failed: 422,
    over_sms_send_rate_limit: 429,
  },
};
