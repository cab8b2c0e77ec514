/**
 * The parsed configuration. Each section's file adds its part (`declare module "../shape.js" {
 * interface Config { readonly mfa: MfaConfig } }`) beside the `settle` that builds it, so a new section
 * changes no file but its own; the loader (load.ts) merges what every module's section settles into.
 * It stands apart from types.ts, which re-exports the sections' types, so that no section imports a
 * file that imports it.
 */
// biome-ignore lint/suspicious/noEmptyInterface: the sections fill it in by declaration merging.
export interface Config {}
