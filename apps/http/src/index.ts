export { type AppDeps, createApp } from "./app.js";
export * from "./config.js";
