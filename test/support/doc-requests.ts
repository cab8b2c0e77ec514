/**
 * Reads the shell commands of a document such as README.md or docs/first-requests.md. Each ```sh block
 * holds commands, one per line (a line ending in `\` continues on the next; `#` comments are shell's);
 * a `curl` command followed by an ```http block has that answer (status line, the headers that matter,
 * a blank line, the JSON body). HTML comments — invisible on the rendered page — tell the test what a
 * reader does between the commands:
 *   <!-- keep NAME=json.path NAME=header:location#fragment_param -->  values of the last answer
 *   <!-- mail address: NAME=code NAME=link NAME=token_hash -->         values of the next mail to address
 *   <!-- sms +phone: NAME=code -->                                      the code of the next text to phone
 *   <!-- totp NAME from SECRET_NAME -->                                 an authenticator app's code
 *   <!-- not run: REASON [command prefix] -->   the next block's commands (those starting with the prefix)
 *                                               are not run, for a reason the test lists
 *   <!-- run in a new folder -->                the next block runs in a folder of its own
 */
export type Step =
  | { kind: "request"; line: number; command: string; folder: number; answer?: Answer }
  | { kind: "command"; line: number; command: string; folder: number }
  | { kind: "not run"; line: number; command: string; reason: string; marker: number }
  | { kind: "keep"; line: number; names: Record<string, string> }
  | { kind: "mail" | "sms"; line: number; to: string; names: Record<string, string> }
  | { kind: "totp"; line: number; name: string; from: string };

export interface Answer {
  status: number;
  headers: Record<string, string>;
  body: unknown;
}

const assignments = (text: string): Record<string, string> =>
  Object.fromEntries(
    text
      .trim()
      .split(/\s+/)
      .filter(Boolean)
      .map((pair) => {
        const at = pair.indexOf("=");
        if (at < 1) throw new Error(`expected NAME=source, got ${pair}`);
        return [pair.slice(0, at), pair.slice(at + 1)];
      }),
  );

export function parseAnswer(text: string): Answer {
  const [head = "", ...rest] = text.split(/\n\n/);
  const [statusLine = "", ...headerLines] = head.split("\n");
  const status = Number(/^HTTP\/[\d.]+ (\d{3})/.exec(statusLine)?.[1]);
  if (!Number.isInteger(status)) throw new Error(`not a status line: ${statusLine}`);
  const headers = Object.fromEntries(
    headerLines
      .filter((line) => line.trim() !== "")
      .map((line) => {
        const at = line.indexOf(":");
        return [line.slice(0, at).trim().toLowerCase(), line.slice(at + 1).trim()];
      }),
  );
  const bodyText = rest.join("\n\n").trim();
  return { status, headers, body: bodyText === "" ? undefined : JSON.parse(bodyText) };
}

/** The commands of a shell block with the line each starts on: continuation lines joined, blank and comment lines left out. */
function commandsOf(body: readonly string[], firstLine: number): { line: number; command: string }[] {
  const commands: { line: number; command: string }[] = [];
  let current: { line: number; parts: string[] } | undefined;
  body.forEach((text, i) => {
    if (!current && (text.trim() === "" || text.trim().startsWith("#"))) return;
    current ??= { line: firstLine + i, parts: [] };
    current.parts.push(text);
    if (text.endsWith("\\")) return;
    commands.push({ line: current.line, command: current.parts.join("\n") });
    current = undefined;
  });
  if (current) commands.push({ line: current.line, command: current.parts.join("\n") });
  return commands;
}

export function parseSteps(markdown: string): Step[] {
  const lines = markdown.split("\n");
  const steps: Step[] = [];
  let notRun: { reason: string; prefix: string; marker: number }[] = [];
  let newFolder = false;
  let folders = 0;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] ?? "";
    const fence = /^```(\w*)/.exec(line);
    if (fence) {
      const start = i;
      const body: string[] = [];
      for (i++; i < lines.length && !(lines[i] ?? "").startsWith("```"); i++) body.push(lines[i] ?? "");
      if (fence[1] === "sh") {
        const folder = newFolder ? ++folders : 0;
        for (const { line: at, command } of commandsOf(body, start + 2)) {
          const skip = notRun.find((n) => command.startsWith(n.prefix));
          if (skip)
            steps.push({ kind: "not run", line: at, command, reason: skip.reason, marker: skip.marker });
          else if (/^curl /.test(command)) steps.push({ kind: "request", line: at, command, folder });
          else steps.push({ kind: "command", line: at, command, folder });
        }
        notRun = [];
        newFolder = false;
      }
      if (fence[1] === "http") {
        const last = steps.at(-1);
        if (last?.kind !== "request" || last.answer)
          throw new Error(`line ${start + 1}: an answer without its request`);
        last.answer = parseAnswer(body.join("\n"));
      }
      continue;
    }
    const directive = /^<!-- (not run: (\S+)(?: (.+))?|run in a new folder) -->$/.exec(line);
    if (directive?.[2]) notRun.push({ reason: directive[2], prefix: directive[3] ?? "", marker: i + 1 });
    else if (directive) newFolder = true;
    const comment = /^<!-- (keep|mail|sms|totp) (.*) -->$/.exec(line);
    if (!comment) continue;
    const [, kind, rest = ""] = comment;
    if (kind === "keep") steps.push({ kind, line: i + 1, names: assignments(rest) });
    else if (kind === "totp") {
      const [name = "", , from = ""] = rest.split(/\s+/);
      steps.push({ kind, line: i + 1, name, from });
    } else {
      const [to = "", names = ""] = rest.split(/:\s+/, 2);
      steps.push({ kind: kind as "mail" | "sms", line: i + 1, to, names: assignments(names) });
    }
  }
  return steps;
}

/**
 * Where `actual` differs from the documented shape: the same status; every documented header, its
 * value up to the first "…"; every documented field present with the same kind of value, and the
 * same value unless the documented one is a placeholder (a string with "…": the part before it
 * must match; or a number); arrays element by element, a last element "…" standing for any further
 * ones. Fields the document leaves out are allowed.
 */
export function shapeDifferences(actual: unknown, documented: unknown, path = "body"): string[] {
  const kind = (v: unknown) => (v === null ? "null" : Array.isArray(v) ? "array" : typeof v);
  if (kind(actual) !== kind(documented))
    return [`${path}: expected ${kind(documented)}, got ${JSON.stringify(actual)}`];
  if (typeof documented === "string") {
    const prefix = documented.split("…")[0] ?? "";
    if (documented.includes("…"))
      return String(actual).startsWith(prefix) ? [] : [`${path}: expected ${documented}, got ${actual}`];
    return actual === documented
      ? []
      : [`${path}: expected ${JSON.stringify(documented)}, got ${JSON.stringify(actual)}`];
  }
  if (typeof documented === "number") return [];
  if (Array.isArray(documented)) {
    const items = actual as unknown[];
    // A last element "…" stands for "and more": the elements before it are checked, the rest not.
    const open = documented.at(-1) === "…";
    const shown = open ? documented.slice(0, -1) : documented;
    if (open ? items.length < shown.length : items.length !== shown.length)
      return [`${path}: expected ${open ? "at least " : ""}${shown.length} elements, got ${items.length}`];
    return shown.flatMap((item, n) => shapeDifferences(items[n], item, `${path}[${n}]`));
  }
  if (kind(documented) === "object") {
    const got = actual as Record<string, unknown>;
    return Object.entries(documented as Record<string, unknown>).flatMap(([key, value]) =>
      key in got ? shapeDifferences(got[key], value, `${path}.${key}`) : [`${path}.${key}: missing`],
    );
  }
  return actual === documented
    ? []
    : [`${path}: expected ${JSON.stringify(documented)}, got ${JSON.stringify(actual)}`];
}

/** A value of an answer: `a.b.0.c` in the body, or `header:location#name` (a fragment or query parameter). */
export function pick(answer: { headers: Headers; body: unknown }, source: string): string {
  if (source.startsWith("header:")) {
    const [name = "", param] = source.slice("header:".length).split("#");
    const value = answer.headers.get(name) ?? "";
    if (param === undefined) return value;
    const url = new URL(value);
    const params = new URLSearchParams(url.hash.slice(1));
    return params.get(param) ?? url.searchParams.get(param) ?? "";
  }
  let value: unknown = answer.body;
  for (const part of source.split(".")) value = (value as Record<string, unknown> | undefined)?.[part];
  if (typeof value !== "string" && typeof value !== "number") throw new Error(`no value at ${source}`);
  return String(value);
}
