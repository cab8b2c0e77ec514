import { existsSync, readdirSync, readFileSync } from "node:fs";
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

function anchorsOf(path: string): Set<string> {
  const text = readFileSync(new URL(path, root), "utf8");
  return new Set([...text.matchAll(/^#{1,6} (.+)$/gm)].map((m) => anchorOf(m[1] ?? "")));
}

describe("README and docs", () => {
  it("the README stays a short entry point (at most 10 KB); details live in docs/", () => {
    expect(readFileSync(new URL("README.md", root)).byteLength).toBeLessThanOrEqual(10 * 1024);
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
