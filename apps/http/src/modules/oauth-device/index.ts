import { sectionOf } from "../../config/sections/section.js";
import type { HttpModule } from "../module.js";
import { deviceAuthorizationEndpoints } from "./device-authorization.js";
import { deviceCodeHttpGrant } from "./device-code-grant.js";
import * as oauthDevice from "./section.js";
import { verificationPageEndpoints } from "./verification-page.js";

/** The device authorization grant (RFC 8628) of the OAuth server: CLIs and TVs (docs/oauth-devices.md). */
export const oauthDeviceModule: HttpModule = {
  name: "oauth-device",
  section: sectionOf(oauthDevice),
  settings: (config) => ({ oauthDevice: oauthDevice.oauthDeviceSettings(config) }),
  endpoints: [...deviceAuthorizationEndpoints, ...verificationPageEndpoints],
  grants: [deviceCodeHttpGrant],
  statuses: {
    authorization_pending: 400,
    slow_down: 400,
    expired_token: 400,
  },
};
