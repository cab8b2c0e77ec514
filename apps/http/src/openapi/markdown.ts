/**
 * docs/http-api.md's endpoint reference, rendered from the OpenAPI description: a summary table, each
 * operation's parameters, body fields and answers, and the error codes of each status. The rest of
 * the page is written by hand around the markers.
 */
import type { JsonSchema } from "../http/operation.js";

/** The two generated parts: the summary table (under "Endpoints") and the operations (at the end). */
const marker = (part: string) => ({
  begin: `<!-- BEGIN GENERATED ${part} by \`npm run docs:api\` from the OpenAPI description: do not edit -->`,
  end: `<!-- END GENERATED ${part} -->`,
});
export const TABLE = marker("endpoint table");
export const OPERATIONS = marker("operations");

type Json = Record<string, unknown>;
interface Doc {
  readonly paths: Readonly<Record<string, Readonly<Record<string, Json>>>>;
  readonly components: Json;
}

const cell = (text: string) => text.replace(/\|/g, "\\|").replace(/\n/g, " ");
const refName = (ref: unknown) => (typeof ref === "string" ? (ref.split("/").pop() ?? "") : "");

/** "none", "user", "admin" or "client": who may call it (the description's `x-authsvc-access`). */
const accessOf = (operation: Json) => {
  const access = String(operation["x-authsvc-access"]);
  return access === "public" ? "none" : access;
};

/** A schema's type in a few words: `string`, `boolean or null`, `User`, `one of: a, b`. */
function typeOf(schema: Json | undefined): string {
  if (schema === undefined) return "any";
  if (schema.$ref) return `\`${refName(schema.$ref)}\``;
  if (Array.isArray(schema.enum)) return `one of ${schema.enum.map((v) => `\`${String(v)}\``).join(", ")}`;
  if (schema.const !== undefined) return `\`${JSON.stringify(schema.const)}\``;
  for (const key of ["anyOf", "oneOf"]) {
    const options = schema[key] as Json[] | undefined;
    if (options) {
      const types = options.filter((o) => o.type !== "null").map(typeOf);
      const nullable = options.some((o) => o.type === "null") ? " or null" : "";
      return `${[...new Set(types)].join(" or ")}${nullable}`;
    }
  }
  if (schema.type === "array") return `array of ${typeOf(schema.items as Json | undefined)}`;
  if (Array.isArray(schema.type)) return schema.type.join(" or ");
  return typeof schema.type === "string" ? schema.type : "any";
}

/** One bullet per field: `name` (type): description. */
function fieldLines(schema: Json, indent = ""): string[] {
  const properties = (schema.properties as Record<string, Json> | undefined) ?? {};
  const lines = Object.entries(properties).map(
    ([name, field]) =>
      `${indent}- \`${name}\` (${typeOf(field)})${field.description ? `: ${String(field.description)}` : ""}`,
  );
  return lines.length > 0 ? lines : [`${indent}- no fields`];
}

function bodyLines(operation: Json): string[] {
  const body = operation.requestBody as Json | undefined;
  if (body === undefined) return [];
  const content = body.content as Record<string, { schema: Json }>;
  const media = Object.keys(content);
  const schema = content[media[0] ?? ""]?.schema ?? {};
  const about = body.description ? ` — ${String(body.description).replace(/\.$/, "")}` : "";
  const lines = [`Body (${media.map((m) => `\`${m}\``).join(" or ")})${about}:`];
  const variants = schema.anyOf as Json[] | undefined;
  if (variants === undefined) return [...lines, ...fieldLines(schema)];
  for (const variant of variants) lines.push(`- \`${String(variant.title)}\`:`, ...fieldLines(variant, "  "));
  return lines;
}

function answerLines(operation: Json): string[] {
  const responses = operation.responses as Record<string, Json>;
  const lines: string[] = [];
  const errors: string[] = [];
  for (const [status, response] of Object.entries(responses)) {
    if (response.$ref) {
      errors.push(`[${status}](#error-codes)`);
      continue;
    }
    const content = response.content as Record<string, { schema: Json }> | undefined;
    const schema = content?.["application/json"]?.schema;
    const body = schema ? ` — ${typeOf(schema)}` : content?.["text/html"] ? " — an HTML page" : "";
    lines.push(`- \`${status}\`${body}: ${String(response.description)}`);
  }
  if (errors.length > 0) lines.push(`- Errors: ${errors.join(", ")}.`);
  return lines;
}

function parameterLines(operation: Json): string[] {
  const parameters = (operation.parameters as Json[] | undefined) ?? [];
  if (parameters.length === 0) return [];
  return [
    "Parameters:",
    ...parameters.map(
      (p) =>
        `- \`${String(p.name)}\` (${String(p.in)}${p.required ? ", required" : ""}${
          (p.schema as Json).enum ? `, ${typeOf(p.schema as Json)}` : ""
        }): ${String(p.description)}`,
    ),
  ];
}

const operationsOf = (doc: Doc) =>
  Object.entries(doc.paths).flatMap(([path, item]) =>
    Object.entries(item).map(([method, operation]) => ({ method: method.toUpperCase(), path, operation })),
  );

/** GitHub's anchor of the heading `METHOD /path`. */
const anchor = (method: string, path: string) =>
  `${method} ${path}`
    .toLowerCase()
    .replace(/[^\p{L}\p{N} _-]/gu, "")
    .replace(/ /g, "-");

/** The summary table: one row per operation, linked to its section. */
export function renderTable(doc: Doc): string {
  return [
    "| Method | Path | Auth | What it does |",
    "| ------ | ---- | ---- | ------------ |",
    ...operationsOf(doc).map(
      ({ method, path, operation }) =>
        `| ${method} | [\`${path}\`](#${anchor(method, path)}) | ${accessOf(operation)} | ${cell(String(operation.summary))} |`,
    ),
  ].join("\n");
}

/** Each operation's parameters, body fields and answers, and the error codes by status. */
export function renderOperations(doc: Doc): string {
  const out: string[] = [
    "Each operation's parameters, body fields and answers, as the OpenAPI description (`GET /openapi.json`)",
    "states them. Body fields are optional unless the text says otherwise; `null` counts as absent.",
  ];
  for (const { method, path, operation } of operationsOf(doc)) {
    out.push("", `### ${method} ${path}`, "", String(operation.summary));
    if (operation.description) out.push("", String(operation.description));
    out.push("", `Auth: ${accessOf(operation)}.`);
    for (const block of [
      parameterLines(operation),
      bodyLines(operation),
      ["Answers:", ...answerLines(operation)],
    ]) {
      if (block.length > 0) out.push("", ...block);
    }
  }
  const bodies = doc.components.schemas as Record<string, Json>;
  out.push(
    "",
    "### Answer bodies",
    "",
    "The named bodies above (`components.schemas`); fields marked * are always present:",
    "",
  );
  for (const [name, schema] of Object.entries(bodies)) {
    if (/^(Error\d{3}|HookError)$/.test(name)) continue;
    const required = new Set((schema.required as string[] | undefined) ?? []);
    const fields = Object.entries((schema.properties as Record<string, Json> | undefined) ?? {}).map(
      ([field, type]) => `\`${field}\`${required.has(field) ? "*" : ""} (${typeOf(type)})`,
    );
    const about = schema.description ? ` ${String(schema.description)}` : "";
    out.push(`- \`${name}\`:${about} ${fields.length > 0 ? fields.join(", ") : "no fields"}.`);
  }
  const schemas = doc.components.schemas as Record<
    string,
    { oneOf?: { properties: { error_code?: { enum?: string[] } } }[] }
  >;
  out.push(
    "",
    "### Error codes",
    "",
    "The `error_code` (legacy shape) or `code` (2024-01-01 shape) each status may carry:",
    "",
    "| Status | Codes |",
    "| ------ | ----- |",
  );
  for (const [name, schema] of Object.entries(schemas)) {
    const status = /^Error(\d{3})$/.exec(name)?.[1];
    const codes = schema.oneOf?.[0]?.properties.error_code?.enum ?? [];
    if (status) out.push(`| ${status} | ${codes.map((code) => `\`${code}\``).join(", ")} |`);
  }
  out.push(
    "| 4XX, 5XX | A hook's refusal, at the status the hook chose: `unknown` (4xx) or `unexpected_failure` (5xx) |",
  );
  return out.join("\n");
}

function replaceBetween(page: string, part: { begin: string; end: string }, text: string): string {
  const begin = page.indexOf(part.begin);
  const end = page.indexOf(part.end);
  if (begin < 0 || end < begin)
    throw new Error(`docs/http-api.md: markers ${part.begin} … ${part.end} not found`);
  return `${page.slice(0, begin + part.begin.length)}\n\n${text}\n\n${page.slice(end)}`;
}

/** `page` with its generated parts rendered anew from `doc`. */
export function updateHttpApiDoc(page: string, doc: Doc | JsonSchema): string {
  const description = doc as Doc;
  return replaceBetween(
    replaceBetween(page, TABLE, renderTable(description)),
    OPERATIONS,
    renderOperations(description),
  );
}
