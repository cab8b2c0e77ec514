import { sectionOf } from "../../config/sections/section.js";
import type { HttpModule } from "../module.js";
import * as adminConsole from "./section.js";
import { signInEndpoints } from "./sign-in.js";
import { staticAssetEndpoints } from "./static-assets.js";
import { userEndpoints } from "./users.js";

/**
 * The admin console (docs/admin-console.md): server-rendered pages at `/admin/console` where the
 * administrators the configuration names manage users, their sessions and bans from a browser, through
 * the admin API's use cases. Its own session cookie (SameSite=Strict, scoped to its path), a CSRF
 * value bound to the session in every form, no script, no frame.
 */
export const adminConsoleModule: HttpModule = {
  name: "admin-console",
  section: sectionOf(adminConsole),
  endpoints: [...staticAssetEndpoints, ...signInEndpoints, ...userEndpoints]
    // A browser's pages, never another origin's script's to read.
    .map((e) => ({ ...e, guards: { ...e.guards, crossOrigin: "refused" as const } })),
};
