import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { type BrowserContext, type CDPSession, chromium, type Page } from "playwright-core";
import { expect } from "vitest";

/** Debian's Chromium, which the page tests drive headless (`.ci/run` installs it). */
export const CHROMIUM = "/usr/bin/chromium";
export const chromiumPresent = existsSync(CHROMIUM);

const AXE = fileURLToPath(new URL("../../node_modules/axe-core/axe.min.js", import.meta.url));

/**
 * A headless Chromium with a profile of its own, and what the page tests ask of it: new pages that
 * collect every Content-Security-Policy report and page error (`violations`), and axe-core's check.
 */
export async function headlessChromium() {
  const profile = mkdtempSync(join(tmpdir(), "authsvc-chromium-"));
  const context: BrowserContext = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    args: [
      "--headless",
      "--no-sandbox",
      "--disable-gpu",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
      "--no-first-run",
    ],
  });
  const violations: string[] = [];

  async function newPage(): Promise<Page> {
    const page = await context.newPage();
    page.on("console", (message) => {
      if (/Content Security Policy|Refused to/i.test(message.text())) violations.push(message.text());
    });
    page.on("pageerror", (error) => violations.push(`error: ${error.message}`));
    return page;
  }

  /** axe-core on the page as it is: no serious or critical violation. */
  async function accessible(page: Page, name: string, session?: CDPSession) {
    // Through the DevTools protocol: the page's CSP (rightly) refuses an injected script tag.
    const cdp = session ?? (await context.newCDPSession(page));
    await cdp.send("Runtime.evaluate", { expression: readFileSync(AXE, "utf8") });
    if (session === undefined) await cdp.detach();
    // A string: the test's own types know no DOM.
    const found = (await page.evaluate("axe.run(document).then((r) => r.violations)")) as {
      id: string;
      impact: string;
      nodes: { html: string }[];
    }[];
    const serious = found
      .filter((v) => v.impact === "serious" || v.impact === "critical")
      .map((v) => `${v.id} (${v.impact}): ${v.nodes.map((n) => n.html).join(" | ")}`);
    expect(serious, `axe on the ${name} page`).toEqual([]);
  }

  async function close() {
    await context.close();
    rmSync(profile, { recursive: true, force: true });
  }

  return { context, newPage, accessible, violations, close };
}

export type HeadlessChromium = Awaited<ReturnType<typeof headlessChromium>>;
