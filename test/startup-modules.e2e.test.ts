import { execFileSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

/** The built server's wiring, as `npm start` loads it (`npm test` builds first). */
const COMPOSE = new URL("../apps/http/dist/composition/compose.js", import.meta.url).href;

/** The npm packages a fresh Node process has loaded after importing the server's wiring. */
function packagesLoadedAtStart(): string[] {
  const script = `
    await import(${JSON.stringify(COMPOSE)});
    const { createRequire } = await import("node:module");
    const files = Object.keys(createRequire(import.meta.url).cache);
    const names = files.map((f) => /node_modules\\/((?:@[^/]+\\/)?[^/]+)/.exec(f)?.[1]).filter(Boolean);
    console.log(JSON.stringify([...new Set(names)]));
  `;
  const out = execFileSync(process.execPath, ["--input-type=module", "-e", script], {
    cwd: fileURLToPath(new URL("..", import.meta.url)),
    encoding: "utf8",
  });
  return JSON.parse(out) as string[];
}

describe("what the server loads before it serves", () => {
  it("leaves the clients of optional services (SMS, SMTP, Redis, webhooks, QR codes) to their first use", () => {
    // Each costs tens to hundreds of milliseconds of start time, and most servers never use some of them.
    const loaded = packagesLoadedAtStart();
    for (const optional of ["twilio", "axios", "nodemailer", "ioredis", "undici", "qrcode"]) {
      expect(loaded, optional).not.toContain(optional);
    }
    expect(loaded).toContain("pino"); // the check itself sees CommonJS packages loaded through imports
  });
});
