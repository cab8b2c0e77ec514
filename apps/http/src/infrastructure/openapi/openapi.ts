import type { H } from "hono/types";
import type { AppEnv } from "../../http/app-env.js";
import { endpoint } from "../../modules/module.js";
import type { DescribedModule } from "../../openapi/document.js";

const PATH = "/openapi.json";
/** The base paths whose bodies are kept: each configured one, spelt as clients spell it. */
const KEPT = 16;

/**
 * The description of `modules`, with the base path it was asked under as its server, so relative
 * clients call that prefix. Built at the first request of each base path; the generator (with
 * valibot's JSON Schema conversion) is imported then too, so a server nobody asks never loads it.
 */
const describing = (modules: () => readonly DescribedModule[], version: string): H<AppEnv> => {
  const bodies = new Map<string, string>();
  return async (c) => {
    const asked = new URL(c.req.url).pathname;
    const base = asked.endsWith(PATH) ? asked.slice(0, -PATH.length) : "";
    let body = bodies.get(base);
    if (body === undefined) {
      const { openApiDocument } = await import("../../openapi/document.js");
      body = JSON.stringify(openApiDocument(modules(), { version, servers: [base || "/"] }));
      // Odd spellings of a prefix (percent-escapes) are answered but not kept: memory stays bounded.
      if (bodies.size < KEPT) bodies.set(base, body);
    }
    return c.body(body, 200, { "content-type": "application/json" });
  };
};

/** `GET /openapi.json`; not served at all (no handler) when `API_OPENAPI_ENABLED` is off. */
export const openapiEndpoint = endpoint(
  {
    method: "get",
    path: PATH,
    summary: "This description (OpenAPI 3.1), when `AUTHSVC_API_OPENAPI_ENABLED` is on.",
    access: "public",
    responses: {
      200: {
        description: "The description; its server is the base path it was asked under.",
        body: { type: "object", required: ["openapi", "info", "paths"] },
      },
    },
  },
  (ctx) => (ctx.openapiEnabled === false ? [] : [describing(() => ctx.modules, ctx.version)]),
);
