/**
 * Checks answers of a running server against the OpenAPI description (GET /openapi.json): the
 * operation must exist for the method and path, its status must be declared for it, and the content
 * type, the required headers and the JSON body must be what the description says. A path the
 * description does not list must be answered `404 not_found`, a listed path with another method
 * `405 method_not_allowed`, both with the error body of that status.
 */
import { Ajv2020, type ValidateFunction } from "ajv/dist/2020.js";
import addFormatsModule from "ajv-formats";

type Json = Record<string, unknown>;

/** One answer as the client saw it. */
export interface Answer {
  readonly method: string;
  /** The path the app routes on: without the base path, without the query. */
  readonly path: string;
  readonly status: number;
  readonly headers: Headers;
  readonly body: string;
}

interface Route {
  readonly template: string;
  readonly pattern: RegExp;
  readonly literalSegments: number;
  readonly item: Readonly<Record<string, Json>>;
}

// ajv-formats is CommonJS with a default export; under ESM interop it may arrive wrapped.
const addFormats = ((addFormatsModule as unknown as { default?: unknown }).default ?? addFormatsModule) as (
  ajv: Ajv2020,
) => Ajv2020;

export class AnswerChecker {
  private readonly ajv: Ajv2020;
  private readonly routes: readonly Route[];
  private readonly validators = new Map<string, ValidateFunction>();

  constructor(private readonly doc: Json) {
    this.ajv = addFormats(new Ajv2020({ strict: false, allErrors: false }));
    this.ajv.addSchema({ $id: "openapi", components: (doc.components as Json) ?? {} });
    const paths = doc.paths as Record<string, Record<string, Json>>;
    this.routes = Object.entries(paths)
      .map(([template, item]) => {
        const segments = template.split("/");
        // A parameter marked `x-segments: many` is the rest of the path: one segment or more.
        const many = new Set(
          Object.values(item).flatMap((operation) =>
            ((operation.parameters as Json[] | undefined) ?? [])
              .filter((p) => p["x-segments"] === "many")
              .map((p) => `{${String(p.name)}}`),
          ),
        );
        const pattern = new RegExp(
          `^${segments
            .map((segment) =>
              many.has(segment)
                ? ".+"
                : /^\{[^}]+\}$/.test(segment)
                  ? "[^/]+"
                  : segment.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"),
            )
            .join("/")}$`,
        );
        return {
          template,
          pattern,
          literalSegments: segments.filter((s) => !s.startsWith("{")).length,
          item,
        };
      })
      // A literal segment beats a parameter: `/user/sessions` before a `/user/{id}` would be.
      .sort((a, b) => b.literalSegments - a.literalSegments);
    this.compileAll();
  }

  /** Compiles every body schema now, so that checking an answer later does no compiling. */
  private compileAll(): void {
    for (const status of ["404", "405"])
      this.validator({ $ref: `openapi#/components/schemas/Error${status}` });
    for (const route of this.routes) {
      for (const operation of Object.values(route.item)) {
        for (const declared of Object.values(operation.responses as Record<string, Json>)) {
          const content = this.resolve(declared).content as Record<string, { schema: Json }> | undefined;
          for (const media of Object.values(content ?? {})) this.validator(this.rebase(media.schema));
        }
      }
    }
  }

  private validator(schema: Json): ValidateFunction {
    const key = JSON.stringify(schema);
    let validate = this.validators.get(key);
    if (validate === undefined) {
      validate = this.ajv.compile(schema);
      this.validators.set(key, validate);
    }
    return validate;
  }

  /** What is wrong with `answer`, or undefined when the description allows it. */
  check(answer: Answer): string | undefined {
    const method = answer.method.toLowerCase();
    const where = `${answer.method} ${answer.path} → ${answer.status}`;
    // Node's own answer to headers that take over 2 s, before any route (the description's info).
    if (answer.status === 408 && answer.body === "" && !answer.headers.has("content-type")) return undefined;
    // CORS preflights are answered on every path by the middleware, before any route (the info).
    if (method === "options")
      return answer.status === 204 ? undefined : `${where}: a preflight answered ${answer.status}`;
    const matching = this.routes.filter((r) => r.pattern.test(answer.path));
    // A HEAD answer has no body to check.
    const bodyOf = (schema: string) =>
      method === "head"
        ? undefined
        : this.checkBody(where, answer, { $ref: `openapi#/components/schemas/${schema}` });
    if (matching.length === 0) {
      return answer.status === 404
        ? bodyOf("Error404")
        : `${where}: the path is not in the description (only a 404 may answer it)`;
    }
    // The router, like the description's readers, prefers a literal segment to a parameter, but a
    // path such as `/user/identities/authorize` also matches `/user/identities/{identity_id}` for
    // the methods only that one takes.
    const wanted = method === "head" ? "get" : method;
    const route = matching.find((r) => r.item[wanted] !== undefined);
    const operation = route?.item[wanted];
    if (route === undefined || operation === undefined) {
      return answer.status === 405
        ? bodyOf("Error405")
        : `${where}: ${answer.method} is not described for ${matching[0]?.template} (only a 405 may answer it)`;
    }
    const responses = operation.responses as Record<string, Json>;
    // A range (`4XX`) covers the statuses no entry of their own names (a hook's chosen status).
    const declared = responses[String(answer.status)] ?? responses[`${Math.floor(answer.status / 100)}XX`];
    if (declared === undefined) {
      return `${where}: status ${answer.status} is not declared for ${answer.method.toUpperCase()} ${route.template} (declared: ${Object.keys(responses).join(", ")})`;
    }
    const response = this.resolve(declared);
    for (const [name, header] of Object.entries((response.headers as Record<string, Json>) ?? {})) {
      if (header.required === true && !answer.headers.has(name)) return `${where}: header ${name} is missing`;
    }
    const content = response.content as Record<string, { schema: Json }> | undefined;
    if (content === undefined || method === "head") {
      return answer.body === "" || method === "head" ? undefined : `${where}: a body where none is described`;
    }
    const media = (answer.headers.get("content-type") ?? "").split(";")[0]?.trim() ?? "";
    const described = content[media];
    if (described === undefined) {
      return `${where}: content type "${media}", described: ${Object.keys(content).join(", ")}`;
    }
    // A page (`text/html`) is text, described as a string: its schema is checked on the text itself.
    if (media !== "application/json") {
      const validate = this.validator(this.rebase(described.schema));
      return validate(answer.body) ? undefined : `${where}: the ${media} body is not what is described`;
    }
    return this.checkBody(where, answer, this.rebase(described.schema));
  }

  /** Validates the JSON body against `schema` (refs into the description's components). */
  private checkBody(where: string, answer: Answer, schema: Json): string | undefined {
    const media = (answer.headers.get("content-type") ?? "").split(";")[0]?.trim();
    if (media !== "application/json") return `${where}: content type "${media}", not application/json`;
    let body: unknown;
    try {
      body = JSON.parse(answer.body);
    } catch {
      return `${where}: the body is not JSON: ${answer.body.slice(0, 200)}`;
    }
    const validate = this.validator(schema);
    if (validate(body)) return undefined;
    const problems = (validate.errors ?? [])
      .slice(0, 5)
      .map((e) => `${e.instancePath || "(body)"} ${e.message} ${JSON.stringify(e.params)}`);
    return `${where}: the body does not match the description: ${problems.join("; ")}; body: ${answer.body.slice(0, 500)}`;
  }

  /** A `$ref` of components.responses, followed. */
  private resolve(response: Json): Json {
    const ref = response.$ref;
    if (typeof ref !== "string") return response;
    const name = ref.split("/").pop() ?? "";
    return ((this.doc.components as Json).responses as Record<string, Json>)[name] ?? {};
  }

  /** The schema with its `#/components/…` refs pointed at the description registered in ajv. */
  private rebase(schema: Json): Json {
    return JSON.parse(JSON.stringify(schema).replaceAll('"$ref":"#/', '"$ref":"openapi#/')) as Json;
  }
}
