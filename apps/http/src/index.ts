export { createApp } from "./composition/app.js";
export { MODULES } from "./composition/modules.js";
export * from "./config.js";
export type { AppDeps } from "./http/app-deps.js";
export { type OpenApiDocument, openApiDocument } from "./openapi/document.js";
