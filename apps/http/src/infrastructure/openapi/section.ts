/** The OpenAPI description of the interface, served at `GET /openapi.json`. */
import * as k from "../../config/kinds.js";
import type { Reader } from "../../config/reader.js";
import type { Config } from "../../config/shape.js";
import { defineVariables } from "../../config/variable.js";

const variable = defineVariables("OpenAPI description");
export const variables = {
  enabled: variable({
    key: "API_OPENAPI_ENABLED",
    kind: k.boolean,
    default: "true",
    description:
      "Serves the OpenAPI 3.1 description of the HTTP interface at `GET /openapi.json` (under every base path); docs/http-api.md is rendered from it.",
  }),
};

export interface OpenApiConfig {
  /** Whether `GET /openapi.json` is served. */
  readonly enabled: boolean;
}

export const read = (r: Reader) => r.getAll(variables);

export const settle = (values: ReturnType<typeof read>): { openapi: OpenApiConfig } => ({
  openapi: { enabled: values.enabled },
});

/** What the app takes of it (modules/module.ts, `ServerDeps`). */
export const openapiSettings = (config: Config) => ({ openapiEnabled: config.openapi.enabled });

declare module "../../config/shape.js" {
  interface Config {
    readonly openapi: OpenApiConfig;
  }
}
