export * from "./config.js";
export { type AppDeps, createApp } from "./http/app.js";
