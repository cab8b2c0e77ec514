import { execFileSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

// The built barrel, as the server imports it (`npm run build` first, as for the end-to-end tests).
const barrel = fileURLToPath(new URL("../dist/index.js", import.meta.url));

/** The CommonJS packages a fresh process has loaded after importing the adapters. */
function packagesLoadedByImport(): string[] {
  const script = `
    await import(${JSON.stringify(barrel)});
    const { createRequire } = await import("node:module");
    const names = Object.keys(createRequire(import.meta.url).cache)
      .map((file) => /node_modules\\/((?:@[^/]+\\/)?[^/]+)\\//.exec(file)?.[1])
      .filter(Boolean);
    process.stdout.write(JSON.stringify([...new Set(names)]));
  `;
  return JSON.parse(
    execFileSync(process.execPath, ["--input-type=module", "-e", script], { encoding: "utf8" }),
  );
}

describe("importing the adapters", () => {
  it("loads none of the packages only SMS, Redis, SMTP, QR codes or outgoing HTTP calls need", () => {
    const loaded = packagesLoadedByImport();
    for (const name of ["twilio", "axios", "ioredis", "nodemailer", "qrcode", "undici"])
      expect(loaded).not.toContain(name);
    // The probe sees CommonJS packages: the in-memory request limiter is one the adapters do load.
    expect(loaded).toContain("rate-limiter-flexible");
  });
});
