import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type FreshNamespace, freshNamespace } from "@authsvc/adapters/testing";
import { productionServerEnv } from "@authsvc/http/testing";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { runServer, type ServerProcess, startServer } from "./support/server-process.js";

const running: ServerProcess[] = [];
const namespaces: FreshNamespace[] = [];
const dirs: string[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((server) => server.stop("SIGKILL")));
});
afterAll(async () => {
  await Promise.all(namespaces.map((ns) => ns.drop()));
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), "authsvc-e2e-"));
  dirs.push(dir);
  return dir;
}

async function productionEnv(extra: Record<string, string>): Promise<Record<string, string>> {
  const ns = await freshNamespace();
  namespaces.push(ns);
  return productionServerEnv(ns, extra);
}

const GITHUB_SECRET = "gh-secret-do-not-print";
const KEYCLOAK_SECRET = "kc-secret-do-not-print";

describe("external providers in the server's configuration", () => {
  it("start when enabled with their credentials, are reported by /settings, and no secret is printed", async () => {
    const env = await productionEnv({
      AUTHSVC_EXTERNAL_GITHUB_ENABLED: "true",
      AUTHSVC_EXTERNAL_GITHUB_CLIENT_ID: "Iv1.0123456789abcdef",
      AUTHSVC_EXTERNAL_GITHUB_SECRET: GITHUB_SECRET,
      AUTHSVC_EXTERNAL_KEYCLOAK_ENABLED: "true",
      AUTHSVC_EXTERNAL_KEYCLOAK_CLIENT_ID: "authsvc",
      AUTHSVC_EXTERNAL_KEYCLOAK_SECRET: KEYCLOAK_SECRET,
      AUTHSVC_EXTERNAL_KEYCLOAK_URL: "http://127.0.0.1:1/realms/main",
    });
    const server = await startServer(env, { cwd: tempDir() });
    running.push(server);
    const body = (await (await fetch(`${server.url}/settings`)).json()) as {
      external: Record<string, boolean>;
    };
    const on = Object.entries(body.external)
      .filter(([, enabled]) => enabled)
      .map(([name]) => name);
    expect(on.sort()).toEqual(["email", "github", "keycloak"]);
    expect(body.external.google).toBe(false);
    const printed = JSON.stringify(server.lines()) + server.stderr();
    expect(printed).not.toContain(GITHUB_SECRET);
    expect(printed).not.toContain(KEYCLOAK_SECRET);
  });

  it("an enabled provider missing a required value stops the start, naming it, without printing the secret", async () => {
    const env = await productionEnv({
      AUTHSVC_EXTERNAL_KEYCLOAK_ENABLED: "true",
      AUTHSVC_EXTERNAL_KEYCLOAK_SECRET: KEYCLOAK_SECRET,
    });
    const result = await runServer(env, { cwd: tempDir() });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(
      "AUTHSVC_EXTERNAL_KEYCLOAK_CLIENT_ID: required when AUTHSVC_EXTERNAL_KEYCLOAK_ENABLED is true",
    );
    expect(result.stderr).toContain(
      "AUTHSVC_EXTERNAL_KEYCLOAK_URL: required when AUTHSVC_EXTERNAL_KEYCLOAK_ENABLED is true",
    );
    expect(result.stderr + result.stdout).not.toContain(KEYCLOAK_SECRET);
  });
});
