import { sectionOf } from "../../config/sections/section.js";
import type { HttpModule } from "../module.js";
import { customProviderEndpoints } from "./admin-custom-providers.js";
import { customProviderPortsOf } from "./ports.js";
import * as customProviders from "./section.js";

/**
 * Custom OAuth 2.0 / OpenID Connect providers that an admin adds at runtime: `/admin/custom-providers`,
 * and sign-in with `custom:<name>` through the external module's `/authorize`, `/callback` and
 * `id_token` grant (its `providers` port, which this module's ports extend; docs/custom-providers.md).
 */
export const customProvidersModule: HttpModule = {
  name: "custom-providers",
  section: sectionOf(customProviders),
  settings: (config) => customProviders.customProvidersSettings(config),
  ports: (ctx) => customProviderPortsOf(ctx),
  endpoints: customProviderEndpoints,
  statuses: {
    custom_provider_not_found: 404,
    over_custom_provider_quota: 400,
  },
  failureStatuses: {
    // The reference answers a taken identifier with 400, not the code's 409.
    customProviderExists: 400,
  },
};
