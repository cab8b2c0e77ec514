import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type FreshNamespace, freshNamespace, startSmtpSink } from "@authsvc/adapters/testing";
import {
  ENDPOINTS,
  fuzzRuns,
  productionServerEnv,
  type RequestSpec,
  registerFuzzTargets,
  requestArbitrary,
  roleKey,
  samlFuzzEnv,
  type TargetedContext,
  targetedRequestArbitrary,
  toRequest,
} from "@authsvc/http/testing";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ServerProcess, startServer } from "./support/server-process.js";

/**
 * The built server process under malformed requests to every endpoint, over real sockets (bodies that
 * are not what content-type or content-length say, odd methods): never a 5xx, never a crash.
 * `npm run fuzz` runs 100,000 (FUZZ_RUNS).
 */
let ns: FreshNamespace;
let server: ServerProcess;
let keys: { anon: string; serviceRole: string };
let sink: Awaited<ReturnType<typeof startSmtpSink>>;
let targets: TargetedContext;
const dir = mkdtempSync(join(tmpdir(), "authsvc-fuzz-"));

beforeAll(async () => {
  ns = await freshNamespace();
  // A working mail server: a server without one answers 500 email_send_failed, as the reference does.
  sink = await startSmtpSink();
  const smtp = {
    AUTHSVC_SMTP_HOST: sink.host,
    AUTHSVC_SMTP_PORT: String(sink.port),
    AUTHSVC_SMTP_ADMIN_EMAIL: "auth@example.com",
  };
  // The ACS and the OAuth server answer only when they are on.
  const on = {
    ...samlFuzzEnv(),
    AUTHSVC_OAUTH_SERVER_ENABLED: "true",
    AUTHSVC_OAUTH_SERVER_ALLOW_DYNAMIC_REGISTRATION: "true",
    // With a consent page, an authorization request is stored rather than refused first.
    AUTHSVC_OAUTH_SERVER_AUTHORIZATION_PATH: "/consent",
  };
  server = await startServer(productionServerEnv(ns, { ...smtp, ...on }), { cwd: dir });
  keys = { anon: await roleKey("anon"), serviceRole: await roleKey("service_role") };
  targets = await registerFuzzTargets((r) => fetch(r), server.url, keys);
});

afterAll(async () => {
  await server?.stop("SIGKILL");
  await ns?.drop();
  await sink?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe("the server process under malformed requests", () => {
  it("never answers 5xx and stays up", async () => {
    await fc.assert(
      fc.asyncProperty(requestArbitrary(ENDPOINTS, keys), async (spec: RequestSpec) => {
        const res = await fetch(toRequest(server.url, spec, AbortSignal.timeout(10_000)));
        const body = await res.text();
        expect(res.status, body).toBeLessThan(500);
      }),
      { numRuns: fuzzRuns(1_000) },
    );
    expect((await fetch(`${server.url}/health`)).status).toBe(200);
  });

  it("never answers 5xx to the ACS and the OAuth server's endpoints, with requests shaped as they read them", async () => {
    await fc.assert(
      fc.asyncProperty(targetedRequestArbitrary(targets), async (spec: RequestSpec) => {
        const res = await fetch(toRequest(server.url, spec, AbortSignal.timeout(10_000)));
        const body = await res.text();
        expect(res.status, `${spec.method} ${spec.path}?${spec.query}: ${body}`).toBeLessThan(500);
      }),
      { numRuns: fuzzRuns(500) },
    );
    expect((await fetch(`${server.url}/health`)).status).toBe(200);
  });
});
