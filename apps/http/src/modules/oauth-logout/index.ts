import { sectionOf } from "../../config/sections/section.js";
import type { HttpModule } from "../module.js";
import { logoutEndpoints } from "./logout.js";
import * as oauthLogout from "./section.js";

/**
 * OpenID Connect logout (docs/oauth-logout.md): `/oauth/logout` (RP-initiated) and the back-channel
 * logout sender's configuration (the sender is started by the composition root).
 */
export const oauthLogoutModule: HttpModule = {
  name: "oauth-logout",
  section: sectionOf(oauthLogout),
  endpoints: logoutEndpoints,
};
