import { mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { type ServerProcess, startServer } from "./support/server-process.js";

/** In embedded mode, SAML without a configured key uses one generated once and kept in the data folder. */
const cwd = mkdtempSync(join(tmpdir(), "authsvc-sso-embedded-"));
let server: ServerProcess | undefined;

afterAll(async () => {
  await server?.stop();
  rmSync(cwd, { recursive: true, force: true });
});

async function certificateAfterStart(): Promise<string> {
  server = await startServer({ PORT: "0", AUTHSVC_SAML_ENABLED: "true" }, { cwd });
  const metadata = await (await fetch(`${server.url}/sso/saml/metadata`)).text();
  await server.stop();
  server = undefined;
  return /<ds:X509Certificate>([^<]+)</.exec(metadata)?.[1] ?? "";
}

describe("SAML in embedded mode", () => {
  it("generates a key into the data folder, readable by its owner only, and publishes the same certificate after a restart", async () => {
    const first = await certificateAfterStart();
    expect(first.length).toBeGreaterThan(500);
    // AUTHSVC_DATA_DIR's default, under the server's working directory.
    const file = join(cwd, ".authsvc", "saml-private-key");
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(await certificateAfterStart()).toBe(first);
  });
});
