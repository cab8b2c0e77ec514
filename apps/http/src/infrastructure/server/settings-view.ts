import type { Config } from "../../config/types.js";

/**
 * The public settings document (spec "Settings", plus the reference's extra fields): each module
 * adds its fields by augmenting this interface beside its `publicSettings` (modules/module.ts).
 */
export interface Settings {
  readonly disable_signup: boolean;
}

/** What contributes to `/settings`: a module's part of the document, derived from the configuration. */
export interface SettingsContributor {
  readonly publicSettings?: (config: Config) => Partial<Settings>;
}

/** The server's own fields of `/settings`. */
export const serverSettings = (config: Config): Partial<Settings> => ({
  disable_signup: config.disableSignup,
});

/** The public `/settings` document for a configuration: every module's part, in the list's order. */
export function settingsOf(config: Config, modules: readonly SettingsContributor[]): Settings {
  return Object.assign({}, ...modules.map((module) => module.publicSettings?.(config))) as Settings;
}
