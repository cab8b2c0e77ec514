/**
 * Configuration of the HTTP app: `AUTHSVC_*` variables (plus the unprefixed names docs/configuration.md lists)
 * from `.env` and the environment, parsed into one typed `Config`, section by section (each module's section.ts, and config/sections/ for the general and database ones).
 * docs/configuration.md documents every variable; it is generated from `configVariables` and a test
 * keeps it in step.
 */
export { configVariables, loadConfig } from "./composition/config.js";
export { ConfigFileError, readEnvironment } from "./config/environment.js";
export type { LoadOptions, LoadResult } from "./config/load.js";
export * from "./config/types.js";
export type { ConfigVariable, Requirement } from "./config/variable.js";
export { DEV_JWT_SECRET_FILE } from "./infrastructure/jwt/section.js";
export {
  EXTERNAL_PROVIDERS,
  type ExternalConfig,
  type ExternalProviderId,
  type OAuthProviderConfig,
} from "./modules/external/section.js";
