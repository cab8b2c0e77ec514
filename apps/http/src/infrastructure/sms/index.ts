import { sectionOf } from "../../config/sections/section.js";
import type { HttpModule } from "../../modules/module.js";
import { smsWithHooks } from "../hooks/dispatcher.js";
import * as sms from "./section.js";
import { smsSenderOf } from "./sms-sender.js";

/** SMS: the gateways and the send limits. */
export const smsModule: HttpModule = {
  name: "sms",
  section: sectionOf(sms),
  publicSettings: (config) => ({
    phone_autoconfirm: config.sms.autoconfirm,
    sms_provider: config.sms.provider ?? "",
  }),
  ports: ({ config, shared, logger }) => ({ sms: smsWithHooks(shared.hooks, smsSenderOf(config, logger)) }),
  settings: (config) => ({ sms: sms.smsSettings(config) }),
  statuses: {
    sms_send_failed: 422,
    over_sms_send_rate_limit: 429,
  },
};

declare module "../server/settings-view.js" {
  interface Settings {
    readonly phone_autoconfirm: boolean;
    readonly sms_provider: string;
  }
}
