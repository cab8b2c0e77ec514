/**
 * How a route describes itself in the OpenAPI description (GET /openapi.json, docs/http-api.md): one
 * `Operation` per method and path, declared beside the route file (`routes/<resource>.openapi.ts`) and
 * listed in the `operations` of the module that mounts it. The request body is the route's own valibot
 * schema, so the description cannot name a field the route does not read; the error answers are
 * derived from the error catalogue and the modules' statuses (errors.ts).
 */
import type { GenericSchema } from "valibot";

/** A JSON Schema (draft 2020-12, the dialect of OpenAPI 3.1). */
export type JsonSchema = { readonly [key: string]: unknown };

/**
 * Who may call: anyone (an API gateway may want `apikey`), a signed-in user, an admin-role token, or
 * an OAuth client authenticating itself (`Authorization: Basic`, or `client_id`/`client_secret` in
 * the body: RFC 6749 §2.3.1).
 */
export type Access = "public" | "user" | "admin" | "client";

export type HttpMethod = "get" | "post" | "put" | "delete" | "patch";

/** A query (or path) parameter. */
export interface Parameter {
  readonly name: string;
  readonly description: string;
  readonly required?: boolean;
  /** A string when absent. */
  readonly schema?: JsonSchema;
  /**
   * A path parameter that is the rest of the path, one segment or more (a route ending in `/*`):
   * `x-segments: many` in the description, which OpenAPI's templates cannot otherwise say.
   */
  readonly segments?: "many";
}

/** A header the answer carries. */
export interface ResponseHeader {
  readonly description: string;
  readonly required?: boolean;
}

/** One answer of an operation that is not an error of the catalogue. */
export interface OperationResponse {
  readonly description: string;
  /** The JSON body; absent for an answer without a body (204, a redirect). */
  readonly body?: JsonSchema;
  /** The body's media type when it is not JSON (`text/html`: a page, described as a string). */
  readonly media?: string;
  readonly headers?: Readonly<Record<string, ResponseHeader>>;
  /** The answer at this status may also be an error of the catalogue (its `Error<status>` body). */
  readonly orError?: boolean;
}

/** The request body: a valibot schema (converted to JSON Schema), or a JSON Schema written out. */
export interface RequestBody {
  readonly schema: GenericSchema | JsonSchema;
  /** A form instead of JSON (providers that post their answer: `response_mode=form_post`). */
  readonly form?: boolean;
  /** The media types the route reads, when not those `form` implies (a form or JSON, not multipart). */
  readonly contentTypes?: readonly string[];
  readonly description?: string;
  /**
   * What the schema alone cannot say about some fields: the values the use case accepts (`enum`), a
   * `description`; merged into the converted schema's properties.
   */
  readonly fields?: Readonly<Record<string, JsonSchema>>;
}

export interface Operation {
  readonly method: HttpMethod;
  /** The path in OpenAPI's template form: `/admin/users/{user_id}`. */
  readonly path: string;
  readonly summary: string;
  readonly description?: string;
  readonly access: Access;
  readonly pathParameters?: readonly Parameter[];
  readonly query?: readonly Parameter[];
  readonly body?: RequestBody;
  /** The answers that are not errors: 200 with the user, 204, 302 to the provider… */
  readonly responses: Readonly<Record<number, OperationResponse>>;
  /**
   * The error statuses it may answer besides those every operation of its kind may (errors.ts:
   * faults and deadlines for all, malformed bodies for those that read one, 401 and 403 for user and
   * admin operations, 429 where a request limit applies).
   */
  readonly errors?: readonly number[];
  /** Answered 429 when `RATE_LIMIT_*` or the send limits apply to it. */
  readonly limited?: boolean;
  /** It calls hooks (docs/hooks.md): a hook's refusal is answered with the status the hook chose. */
  readonly hooks?: boolean;
}

/** The JSON object every route reads its body as: unknown fields are ignored, `null` counts as absent. */
export const jsonObject = (properties: Readonly<Record<string, JsonSchema>>, required: string[] = []) => ({
  type: "object",
  properties,
  ...(required.length > 0 ? { required } : {}),
});

/** A reference to a schema of `components.schemas` (schemas.ts). */
export const ref = (name: string): JsonSchema => ({ $ref: `#/components/schemas/${name}` });

/** The `page` and `per_page` query of the admin lists, and their headers. */
export const PAGE_QUERY: readonly Parameter[] = [
  { name: "page", description: "Page number, from 1.", schema: { type: "string", pattern: "^-?\\d+$" } },
  {
    name: "per_page",
    description: "Entries per page (default 50).",
    schema: { type: "string", pattern: "^-?\\d+$" },
  },
];
export const PAGE_HEADERS: Readonly<Record<string, ResponseHeader>> = {
  "x-total-count": { description: "How many entries there are in all.", required: true },
  link: { description: '`<…?page=N&per_page=M>; rel="next"`, `…; rel="last"`.', required: true },
};

/** `redirect_to` in the query: where mailed links lead (checked against `URI_ALLOW_LIST`). */
export const REDIRECT_QUERY: Parameter = {
  name: "redirect_to",
  description: "Where the link in the message leads; must match `SITE_URL` or `URI_ALLOW_LIST`.",
};

/** A redirect: the `Location` header, no body. */
export const redirect = (description: string): OperationResponse => ({
  description,
  headers: { location: { description: "Where the browser goes next.", required: true } },
});
