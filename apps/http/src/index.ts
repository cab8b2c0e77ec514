export * from "./config.js";
export { type AppDeps, createApp } from "./http/app.js";
export { MODULES } from "./modules/index.js";
export { type OpenApiDocument, openApiDocument } from "./openapi/document.js";
