import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { describe, expect, it } from "vitest";

const root = new URL("../../../", import.meta.url);
const pages = ["README.md", ...readdirSync(new URL("docs/", root)).map((name) => `docs/${name}`)];

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

  it("the README maps every page of docs/", () => {
    const readme = readFileSync(new URL("README.md", root), "utf8");
    const unmapped = pages.filter((page) => page !== "README.md" && !readme.includes(`](${page})`));
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
