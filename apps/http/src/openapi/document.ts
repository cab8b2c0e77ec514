/**
 * The OpenAPI 3.1 description of the server, built from the modules (composition/modules.ts): each module's
 * `operations` (declared beside its routes), its grants' body schemas for `POST /token`, and the error
 * catalogue (errors.ts). Served at `GET /openapi.json` and rendered into docs/http-api.md.
 */
import { toJsonSchema } from "@valibot/to-json-schema";
import type { GenericSchema } from "valibot";
import { OBJECT_SCHEMA } from "../http/body.js";
import { type HttpGrant, offeredAt } from "../http/grants/http-grant.js";
import type { JsonSchema, Operation, Parameter, RequestBody } from "../http/operation.js";
import type { StatusOwner } from "../http/statuses.js";
import { commonErrors, errorCodesByStatus, errorResponse, errorSchema, hookErrorSchema } from "./errors.js";
import { SCHEMAS } from "./schemas.js";

/** What the description is built from: a capability (modules/) with its endpoints, grants and statuses. */
export interface DescribedModule extends StatusOwner {
  /** Its endpoints (http/endpoint.ts), described in this order. */
  readonly endpoints?: readonly { readonly operation: Operation }[];
  /** The grant types it adds, with where each is offered and the body it reads there. */
  readonly grants?: readonly HttpGrant[];
}

/** Every operation of `module`, in the order of its endpoints. */
export const operationsOf = (module: DescribedModule): readonly Operation[] =>
  (module.endpoints ?? []).map((endpoint) => endpoint.operation);

export type OpenApiDocument = {
  readonly openapi: string;
  readonly info: JsonSchema;
  readonly servers?: readonly JsonSchema[];
  readonly paths: Readonly<Record<string, Readonly<Record<string, JsonSchema>>>>;
  readonly components: JsonSchema;
  readonly [key: string]: unknown;
};

const INFO = {
  title: "authsvc",
  summary: "The HTTP interface of Supabase Auth (GoTrue), as authsvc serves it.",
  description: [
    "Every path is served at the root and under each of `AUTHSVC_API_BASE_PATHS` (default `/` and `/auth/v1`).",
    "A request to a path not listed here is answered `404 not_found`; a listed path with another method",
    "`405 method_not_allowed` with `Allow`. Errors come in two shapes: the legacy one by default, the",
    "2024-01-01 one when the request carries `X-Supabase-Api-Version: 2024-01-01` (or a later date).",
    "A request whose headers take over 2 s to arrive gets Node's bare `408` (no body) and a closed connection.",
    "An `OPTIONS` request (a CORS preflight) is answered `204` on every path.",
  ].join(" "),
};

const SECURITY_SCHEMES = {
  apikey: {
    type: "apiKey",
    in: "header",
    name: "apikey",
    description:
      "The project's `anon` or `service_role` key, for an API gateway in front; authsvc itself does not read it.",
  },
  bearer: {
    type: "http",
    scheme: "bearer",
    bearerFormat: "JWT",
    description:
      "A user's access token (user operations), or a token whose `role` is one of `AUTHSVC_JWT_ADMIN_ROLES` (admin operations).",
  },
  oauthClient: {
    type: "http",
    scheme: "basic",
    description:
      "An OAuth client's id and secret (`client_secret_basic`); or `client_id` and `client_secret` in the body (`client_secret_post`), or `client_id` alone for a public client (`none`).",
  },
};

const SECURITY = {
  public: [{}, { apikey: [] }],
  user: [{ bearer: [] }],
  admin: [{ bearer: [] }],
  client: [{ oauthClient: [] }, {}],
};

/** A valibot body schema as JSON Schema: the input the route accepts (before its transforms). */
export function bodySchema(schema: GenericSchema | JsonSchema): JsonSchema {
  if (!("~standard" in schema)) return schema;
  const { $schema: _, ...converted } = toJsonSchema(schema as GenericSchema, {
    target: "draft-2020-12",
    typeMode: "input",
    errorMode: "ignore",
    overrideSchema: ({ valibotSchema }) => (valibotSchema === OBJECT_SCHEMA ? { type: "object" } : undefined),
  });
  return converted;
}

const parameter = (where: "query" | "path", p: Parameter) => ({
  name: p.name,
  in: where,
  description: p.description,
  required: where === "path" || p.required === true,
  schema: p.schema ?? { type: "string" },
  ...(p.segments ? { "x-segments": p.segments } : {}),
});

/** `schema` with `fields` merged into its properties (each field also stays nullable as sent). */
function withFields(schema: JsonSchema, fields: Readonly<Record<string, JsonSchema>> = {}): JsonSchema {
  const properties = { ...((schema.properties as Record<string, JsonSchema> | undefined) ?? {}) };
  for (const [name, extra] of Object.entries(fields)) {
    if (!(name in properties)) throw new Error(`openapi: the body has no field ${name} to describe`);
    properties[name] = { ...properties[name], ...extra };
  }
  return { ...schema, properties };
}

function requestBody(body: RequestBody): JsonSchema {
  const schema = withFields(bodySchema(body.schema), body.fields);
  const types =
    body.contentTypes ??
    (body.form ? ["application/x-www-form-urlencoded", "multipart/form-data"] : ["application/json"]);
  return {
    ...(body.description ? { description: body.description } : {}),
    content: Object.fromEntries(types.map((type) => [type, { schema }])),
  };
}

/** The grant types `POST /token` offers, of every module's `grants`. */
const tokenGrants = (modules: readonly DescribedModule[]) =>
  offeredAt(
    modules.flatMap((module) => module.grants ?? []),
    "/token",
  );

/** `POST /token`'s body: one of the grants' bodies, chosen by `grant_type`. */
function grantBody(modules: readonly DescribedModule[]): RequestBody {
  const grants = tokenGrants(modules);
  return {
    description: "The fields of the `grant_type` asked for.",
    schema: {
      anyOf: grants.map((grant) => ({
        title: `grant_type=${grant.type}`,
        ...(grant.body ? bodySchema(grant.body) : { type: "object" }),
      })),
    },
  };
}

function operationObject(
  op: Operation,
  module: DescribedModule,
  modules: readonly DescribedModule[],
  errorStatuses: Set<number>,
): JsonSchema {
  const grants = tokenGrants(modules).map((grant) => grant.type);
  const query = (op.query ?? []).map((p) =>
    p.name === "grant_type" ? { ...p, schema: { enum: grants } } : p,
  );
  const responses: Record<string, JsonSchema> = {};
  for (const [status, answer] of Object.entries(op.responses)) {
    responses[status] = {
      description: answer.description,
      ...(answer.headers
        ? {
            headers: Object.fromEntries(
              Object.entries(answer.headers).map(([name, header]) => [
                name,
                {
                  description: header.description,
                  required: header.required === true,
                  schema: { type: "string" },
                },
              ]),
            ),
          }
        : {}),
      ...(answer.body
        ? {
            content: {
              [answer.media ?? "application/json"]: {
                schema: answer.orError
                  ? { anyOf: [answer.body, { $ref: `#/components/schemas/Error${status}` }] }
                  : answer.body,
              },
            },
          }
        : {}),
    };
    if (answer.orError) errorStatuses.add(Number(status));
  }
  const errors = [...commonErrors(op.method, op.access, op.limited === true), ...(op.errors ?? [])];
  for (const status of [...new Set(errors)].sort((a, b) => a - b)) {
    if (responses[String(status)]) continue;
    responses[String(status)] = { $ref: `#/components/responses/Error${status}` };
    errorStatuses.add(status);
  }
  if (op.hooks) {
    for (const range of ["4XX", "5XX"]) responses[range] = { $ref: "#/components/responses/HookError" };
  }
  const body = op.path === "/token" && op.method === "post" ? grantBody(modules) : op.body;
  return {
    operationId: `${op.method}${op.path.replace(/[^A-Za-z0-9]+(.)?/g, (_, c: string | undefined) => (c ?? "").toUpperCase())}`,
    summary: op.summary,
    ...(op.description ? { description: op.description } : {}),
    tags: [module.name],
    security: SECURITY[op.access],
    "x-authsvc-access": op.access,
    ...(op.pathParameters || query.length > 0
      ? {
          parameters: [
            ...(op.pathParameters ?? []).map((p) => parameter("path", p)),
            ...query.map((p) => parameter("query", p)),
          ],
        }
      : {}),
    ...(body ? { requestBody: requestBody(body) } : {}),
    responses,
  };
}

/** The description of every operation of `modules`. */
export function openApiDocument(
  modules: readonly DescribedModule[],
  options: { version?: string; servers?: readonly string[] } = {},
): OpenApiDocument {
  const paths: Record<string, Record<string, JsonSchema>> = {};
  // Any path answers 404 and any listed path 405 to a method it does not take (the info says so).
  const errorStatuses = new Set<number>([404, 405]);
  for (const module of modules) {
    for (const op of operationsOf(module)) {
      const path = paths[op.path] ?? {};
      paths[op.path] = path;
      if (path[op.method])
        throw new Error(`openapi: ${op.method.toUpperCase()} ${op.path} is described twice`);
      path[op.method] = operationObject(op, module, modules, errorStatuses);
    }
  }
  const errorResponses: Record<string, JsonSchema> = {};
  const errorSchemas: Record<string, JsonSchema> = {};
  const codes = errorCodesByStatus(modules);
  for (const status of [...errorStatuses].sort((a, b) => a - b)) {
    errorResponses[`Error${status}`] = errorResponse(status, codes.get(status) ?? []);
    errorSchemas[`Error${status}`] = errorSchema(status, codes.get(status) ?? []);
  }
  errorSchemas.HookError = hookErrorSchema();
  errorResponses.HookError = {
    description: "A hook refused: the status and message are the hook's (docs/hooks.md).",
    headers: {
      "x-sb-error-code": { description: "The error code.", required: true, schema: { type: "string" } },
    },
    content: { "application/json": { schema: { $ref: "#/components/schemas/HookError" } } },
  };
  return {
    openapi: "3.1.0",
    info: { ...INFO, version: options.version ?? "0.1.0" },
    ...(options.servers ? { servers: options.servers.map((url) => ({ url })) } : {}),
    tags: modules
      .filter((module) => operationsOf(module).length > 0)
      .map((module) => ({ name: module.name })),
    paths: Object.fromEntries(Object.entries(paths).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))),
    components: {
      schemas: { ...SCHEMAS, ...errorSchemas },
      responses: errorResponses,
      securitySchemes: SECURITY_SCHEMES,
    },
  };
}
