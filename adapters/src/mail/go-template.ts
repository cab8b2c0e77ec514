/**
 * The subset of Go's `text/template` syntax that GoTrue (Supabase Auth) mail templates use, so that
 * templates written for Supabase work here unchanged: `{{ .Name }}` (spaces optional, dotted paths such
 * as `.Data.name`), `{{ if … }}`, `{{ else if … }}`, `{{ else }}`, `{{ end }}` with a field, `not`, `eq`
 * or `ne` as condition, comments `{{/* … *\/}}`, and the trim markers `{{- ` and ` -}}`.
 * Anything else (range, with, pipelines, functions) is a syntax error, so that a template we cannot
 * render faithfully is replaced by the default instead of being sent half-rendered.
 */

/** A template uses syntax this renderer does not support, or is malformed. */
export class TemplateSyntaxError extends Error {
  override readonly name = "TemplateSyntaxError";
}

type Operand =
  | { readonly kind: "field"; readonly path: readonly string[] }
  | { readonly kind: "literal"; readonly value: string };
type Condition =
  | { readonly op: "truthy" | "not"; readonly arg: Operand }
  | { readonly op: "eq" | "ne"; readonly left: Operand; readonly right: Operand };
type Node =
  | { readonly kind: "text"; readonly text: string }
  | { readonly kind: "value"; readonly operand: Operand }
  | { readonly kind: "if"; readonly branches: { condition: Condition; body: Node[] }[]; otherwise: Node[] };

/** A parsed template; render it with `renderTemplate`. */
export interface Template {
  readonly nodes: readonly Node[];
}

// `{{- ` trims the whitespace before the action and ` -}}` the whitespace after it (Go requires the space).
const ACTION = /\{\{(-\s)?\s*([\s\S]*?)\s*(\s-)?\}\}/g;
const WORD = /"(?:[^"\\]|\\.)*"|`[^`]*`|\S+/g;
const FIELD = /^(?:\.[A-Za-z_][A-Za-z0-9_]*)+$/;

function operandOf(word: string | undefined): Operand {
  if (word === undefined) throw new TemplateSyntaxError("missing operand");
  if (FIELD.test(word)) return { kind: "field", path: word.slice(1).split(".") };
  if (word.startsWith("`") && word.endsWith("`") && word.length >= 2) {
    return { kind: "literal", value: word.slice(1, -1) };
  }
  if (word.startsWith('"')) {
    try {
      return { kind: "literal", value: JSON.parse(word) as string };
    } catch {
      throw new TemplateSyntaxError(`bad string ${word}`);
    }
  }
  throw new TemplateSyntaxError(`unsupported operand ${JSON.stringify(word)}`);
}

function conditionOf(words: readonly string[]): Condition {
  const [first, ...rest] = words;
  if ((first === "eq" || first === "ne") && rest.length === 2) {
    return { op: first, left: operandOf(rest[0]), right: operandOf(rest[1]) };
  }
  if (first === "not" && rest.length === 1) return { op: "not", arg: operandOf(rest[0]) };
  if (words.length === 1) return { op: "truthy", arg: operandOf(first) };
  throw new TemplateSyntaxError(`unsupported condition ${JSON.stringify(words.join(" "))}`);
}

/** Parses `source`; throws `TemplateSyntaxError` on anything outside the supported subset. */
export function parseTemplate(source: string): Template {
  const root: Node[] = [];
  // The open `if` blocks, innermost last; `body` is where the next node goes.
  const open: { node: Extract<Node, { kind: "if" }>; body: Node[]; sawElse: boolean }[] = [];
  const target = () => open.at(-1)?.body ?? root;
  const pushText = (text: string) => {
    if (text.includes("{{")) throw new TemplateSyntaxError("unclosed action");
    if (text !== "") target().push({ kind: "text", text });
  };
  let last = 0;
  let trimNext = false;
  for (const match of source.matchAll(ACTION)) {
    let text = source.slice(last, match.index);
    if (trimNext) text = text.trimStart();
    if (match[1] !== undefined) text = text.trimEnd();
    pushText(text);
    trimNext = match[3] !== undefined;
    last = match.index + match[0].length;

    const body = match[2] ?? "";
    if (body.startsWith("/*") && body.endsWith("*/")) continue;
    const words = body.match(WORD) ?? [];
    const [keyword, ...rest] = words;
    const block = open.at(-1);
    if (keyword === "if") {
      const node: Extract<Node, { kind: "if" }> = { kind: "if", branches: [], otherwise: [] };
      node.branches.push({ condition: conditionOf(rest), body: [] });
      target().push(node);
      open.push({ node, body: node.branches[0]?.body ?? [], sawElse: false });
    } else if (keyword === "else") {
      if (!block || block.sawElse) throw new TemplateSyntaxError("else without if");
      if (rest[0] === "if") {
        const branch = { condition: conditionOf(rest.slice(1)), body: [] };
        block.node.branches.push(branch);
        block.body = branch.body;
      } else if (rest.length === 0) {
        block.body = block.node.otherwise;
        block.sawElse = true;
      } else {
        throw new TemplateSyntaxError(`unsupported else ${JSON.stringify(body)}`);
      }
    } else if (keyword === "end" && rest.length === 0) {
      if (!open.pop()) throw new TemplateSyntaxError("end without if");
    } else if (words.length === 1) {
      target().push({ kind: "value", operand: operandOf(keyword) });
    } else {
      throw new TemplateSyntaxError(`unsupported action ${JSON.stringify(body)}`);
    }
  }
  const rest = source.slice(last);
  pushText(trimNext ? rest.trimStart() : rest);
  if (open.length > 0) throw new TemplateSyntaxError("if without end");
  return { nodes: root };
}

/** The values a template sees: strings, or nested records for paths like `.Data.name`. */
export type TemplateData = { readonly [name: string]: string | TemplateData };

function operandValue(operand: Operand, data: TemplateData): string {
  if (operand.kind === "literal") return operand.value;
  let value: string | TemplateData | undefined = data;
  for (const key of operand.path) {
    // Own properties only: `.constructor` must not reach the prototype.
    value = typeof value === "object" && Object.hasOwn(value, key) ? value[key] : undefined;
  }
  // A missing field renders empty, as a missing map key does in GoTrue's html/template.
  return typeof value === "string" ? value : "";
}

function holds(condition: Condition, data: TemplateData): boolean {
  switch (condition.op) {
    case "truthy":
      return operandValue(condition.arg, data) !== "";
    case "not":
      return operandValue(condition.arg, data) === "";
    case "eq":
      return operandValue(condition.left, data) === operandValue(condition.right, data);
    case "ne":
      return operandValue(condition.left, data) !== operandValue(condition.right, data);
  }
}

// The entities Go's html/template writes, so mail matches what GoTrue sends byte for byte where it can.
const ENTITIES: Readonly<Record<string, string>> = {
  "&": "&amp;",
  "<": "&lt;",
  ">": "&gt;",
  '"': "&#34;",
  "'": "&#39;",
};

/** Escapes text for HTML content and quoted attribute values alike. */
export const escapeHtml = (text: string): string => text.replace(/[&<>"']/g, (ch) => ENTITIES[ch] ?? ch);

/** Renders `template` with `data`; with `html`, every substituted value is HTML-escaped. */
export function renderTemplate(template: Template, data: TemplateData, options: { html: boolean }): string {
  const out: string[] = [];
  const walk = (nodes: readonly Node[]) => {
    for (const node of nodes) {
      if (node.kind === "text") out.push(node.text);
      else if (node.kind === "value") {
        const value = operandValue(node.operand, data);
        out.push(options.html ? escapeHtml(value) : value);
      } else {
        const branch = node.branches.find((b) => holds(b.condition, data));
        walk(branch ? branch.body : node.otherwise);
      }
    }
  };
  walk(template.nodes);
  return out.join("");
}
