import type { Operation } from "../http/operation.js";

/** `GET /openapi.json` (routes/openapi.ts). */
export const openapiOperations: readonly Operation[] = [
  {
    method: "get",
    path: "/openapi.json",
    summary: "This description (OpenAPI 3.1), when `AUTHSVC_API_OPENAPI_ENABLED` is on.",
    access: "public",
    responses: {
      200: {
        description: "The description; its server is the base path it was asked under.",
        body: { type: "object", required: ["openapi", "info", "paths"] },
      },
    },
  },
];
