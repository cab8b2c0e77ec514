import { Hono } from "hono";
import type { AppEnv } from "../http/app-env.js";
import type { DescribedModule } from "../openapi/document.js";
import { openApiDocument } from "../openapi/document.js";

const PATH = "/openapi.json";
/** The base paths whose bodies are kept: each configured one, spelt as clients spell it. */
const KEPT = 16;

/**
 * `GET /openapi.json`: the description of `modules`, with the base path it was asked under as its
 * server, so relative clients call that prefix. Built at the first request of each base path.
 */
export const openapiRoutes = (modules: () => readonly DescribedModule[], version: string) => {
  const bodies = new Map<string, string>();
  return new Hono<AppEnv>().get(PATH, (c) => {
    const asked = new URL(c.req.url).pathname;
    const base = asked.endsWith(PATH) ? asked.slice(0, -PATH.length) : "";
    let body = bodies.get(base);
    if (body === undefined) {
      body = JSON.stringify(openApiDocument(modules(), { version, servers: [base || "/"] }));
      // Odd spellings of a prefix (percent-escapes) are answered but not kept: memory stays bounded.
      if (bodies.size < KEPT) bodies.set(base, body);
    }
    return c.body(body, 200, { "content-type": "application/json" });
  });
};
