import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { describe, expect, it } from "vitest";

const root = new URL("../../../", import.meta.url);
/** The files under `dir`, those of its folders included (docs/examples/nginx.conf). */
const filesUnder = (dir: string): string[] =>
  readdirSync(new URL(`${dir}/`, root)).flatMap((name) =>
    statSync(new URL(`${dir}/${name}`, root)).isDirectory()
      ? filesUnder(`${dir}/${name}`)
      : [`${dir}/${name}`],
  );
const pages = ["README.md", ...filesUnder("docs")];

/** GitHub's anchor of a heading: lower case, punctuation dropped, spaces as hyphens. */
const anchorOf = (heading: string) =>
  heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N} _-]/gu, "")
    .replace(/ /g, "-");

/** The source files under `dir` (relative to the root), fixtures and build output left out. */
function sourcesUnder(dir: string): string[] {
  const found: string[] = [];
  for (const name of readdirSync(new URL(`${dir}/`, root))) {
    const path = `${dir}/${name}`;
    if (["node_modules", "dist", "fixtures", "results"].includes(name)) continue;
    if (statSync(new URL(path, root)).isDirectory()) found.push(...sourcesUnder(path));
    else if (/\.(ts|mjs|cjs|js|sql|sh)$/.test(name)) found.push(path);
  }
  return found;
}

function anchorsOf(path: string): Set<string> {
  const text = readFileSync(new URL(path, root), "utf8");
  return new Set([...text.matchAll(/^#{1,6} (.+)$/gm)].map((m) => anchorOf(m[1] ?? "")));
}

describe("README and docs", () => {
  it("the README stays a short entry point (at most 10 KB); details live in docs/", () => {
    expect(readFileSync(new URL("README.md", root)).byteLength).toBeLessThanOrEqual(10 * 1024);
  });

  // A topic's pages may hang under its main page (docs/oauth-server.md and its docs/oauth-*.md), so
  // the README stays short: every page is linked from the README or from a page the README links.
  it("the README maps every page of docs/, directly or through the page of its topic", () => {
    const readme = readFileSync(new URL("README.md", root), "utf8");
    const mapped = pages.filter((page) => page !== "README.md" && readme.includes(`](${page})`));
    const linkedFrom = (page: string, target: string) =>
      readFileSync(new URL(page, root), "utf8").includes(`](${target.slice("docs/".length)})`);
    const unmapped = pages.filter(
      (page) =>
        page !== "README.md" && !mapped.includes(page) && !mapped.some((parent) => linkedFrom(parent, page)),
    );
    expect(unmapped).toEqual([]);
  });

  it("the benchmarks page stays a reference of current results (at most 20 KB)", () => {
    expect(readFileSync(new URL("docs/benchmarks.md", root)).byteLength).toBeLessThanOrEqual(20 * 1024);
  });

  // A comment's citation must lead a reader of this repository somewhere: documents kept elsewhere
  // (cited by name or as "reference §n") cannot be opened from here.
  it("every document a source file cites is in the repository", () => {
    const dirs = ["core/src", "adapters/src", "apps/http/src", "test", "bench", "migrations", "scripts"];
    const missing: string[] = [];
    for (const file of dirs.flatMap(sourcesUnder)) {
      const text = readFileSync(new URL(file, root), "utf8");
      for (const [cited] of text.matchAll(/[\w./-]*[\w-]\.md\b/g)) {
        const candidates = [
          new URL(cited, root),
          new URL(cited, new URL(file, root)),
          new URL(`docs/${cited}`, root),
        ];
        if (!candidates.some((url) => existsSync(url))) missing.push(`${file}: ${cited}`);
      }
      for (const [cited] of text.matchAll(/reference §[\d.]+/g)) missing.push(`${file}: ${cited}`);
    }
    expect(missing).toEqual([]);
  });

  it.each(pages)("every relative link of %s names a page and heading that exist", (page) => {
    const text = readFileSync(new URL(page, root), "utf8");
    const base = new URL(page, root);
    const broken: string[] = [];
    for (const [, target] of text.matchAll(/\]\(([^)\s]+)\)/g)) {
      if (target === undefined || /^[a-z]+:/.test(target)) continue;
      const [file, anchor] = target.split("#");
      const url = file ? new URL(file, base) : base;
      if (!existsSync(url)) broken.push(target);
      else if (
        anchor &&
        url.pathname.endsWith(".md") &&
        !anchorsOf(url.pathname.slice(root.pathname.length)).has(anchor)
      )
        broken.push(target);
    }
    expect(broken).toEqual([]);
  });
});

/** What a path the architecture page names may be relative to: the repository, or a package's sources. */
const PATH_BASES = ["", "apps/http/src/", "core/src/", "adapters/src/"];

/** A path in backticks: folders and a name, `apps/http/src/http/endpoint.ts`, `core/src/messaging/`. */
const NAMED_PATH = /^(?!\.\/)[\w.<][\w.<>*-]*\/([\w.<>*-]+\/?)*$/;

/** A whole segment standing for any name (`<capability>`, `<gateway>.ts`): only its parent is checked. */
const PLACEHOLDER = /^<[\w-]+>(\.[\w.]+)?$/;

/**
 * Why `path` names nothing in the repository, or undefined when it does under one of `PATH_BASES`.
 * The part before a placeholder must exist; a last segment with `*` must match some entry.
 */
function missingPath(path: string): string | undefined {
  const segments = path.split("/").filter((segment) => segment !== "");
  const placeholder = segments.findIndex((segment) => segment.includes("<"));
  if (placeholder >= 0 && !PLACEHOLDER.test(segments[placeholder] ?? ""))
    return `${path}: a placeholder must be a whole segment`;
  const known = placeholder >= 0 ? segments.slice(0, placeholder) : segments;
  const last = known.at(-1) ?? "";
  if (known.slice(0, -1).some((segment) => segment.includes("*")))
    return `${path}: only the last segment may hold a *`;
  const pattern = last.includes("*")
    ? new RegExp(`^${last.replace(/[.+?^${}()|[\]\\]/g, "\\$&").replace(/\*/g, "[^/]*")}$`)
    : undefined;
  const found = PATH_BASES.some((base) => {
    if (pattern === undefined) return existsSync(new URL(`${base}${known.join("/")}`, root));
    const parent = new URL(`${base}${known.slice(0, -1).join("/")}/`, root);
    return existsSync(parent) && readdirSync(parent).some((name) => pattern.test(name));
  });
  return found ? undefined : path;
}

describe("docs/architecture.md", () => {
  const page = "docs/architecture.md";

  it("stays a reference of the code as it is (at most 20 KB)", () => {
    expect(readFileSync(new URL(page, root)).byteLength).toBeLessThanOrEqual(20 * 1024);
  });

  // Its links are checked with every page's above; here, the paths it names in backticks.
  it("names only paths that exist", () => {
    const text = readFileSync(new URL(page, root), "utf8");
    const named = [...text.matchAll(/`([^`\n]+)`/g)]
      .map((match) => match[1] ?? "")
      .filter((span) => NAMED_PATH.test(span));
    expect(named.length).toBeGreaterThan(50);
    expect(named.map(missingPath).filter((problem) => problem !== undefined)).toEqual([]);
  });
});
