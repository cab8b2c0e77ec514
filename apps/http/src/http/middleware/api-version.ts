import type { MiddlewareHandler } from "hono";
import { API_VERSION_HEADER, parseApiVersion } from "../api-version.js";

/** Sets `apiVersion` for the request and echoes the selected version on the response. */
export const apiVersion = (): MiddlewareHandler => async (c, next) => {
  const version = parseApiVersion(c.req.header(API_VERSION_HEADER));
  c.set("apiVersion", version);
  // Before the handler, so the response it makes carries it (set after, it costs a response rebuild).
  if (version !== "legacy") c.header(API_VERSION_HEADER, version);
  await next();
};
