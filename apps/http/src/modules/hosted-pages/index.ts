import { sectionOf } from "../../config/sections/section.js";
import type { HttpModule } from "../module.js";
import { hostedPageEndpoints } from "./endpoints.js";
import * as hostedPages from "./section.js";

/**
 * authsvc's hosted sign-in and consent pages for its OAuth server (docs/oauth-hosted-pages.md): served
 * when `OAUTH_SERVER_ENABLED` is on and `OAUTH_SERVER_AUTHORIZATION_PATH` empty, in every mode.
 */
export const hostedPagesModule: HttpModule = {
  name: "hosted-pages",
  section: sectionOf(hostedPages),
  endpoints: hostedPageEndpoints,
};
