import type { AuthSettings } from "@authsvc/core";
import type { Config } from "../config/types.js";
import type { HttpModule } from "../modules/module.js";
import { MODULES } from "./modules.js";

/** The use cases' view of the configuration: every module's part (its `settings`), merged. */
export function authSettingsOf(config: Config, modules: readonly HttpModule[] = MODULES): AuthSettings {
  // Each module gives the parts of its slices; auth-settings.test.ts checks that together they are whole.
  return Object.assign({}, ...modules.map((module) => module.settings?.(config))) as AuthSettings;
}
