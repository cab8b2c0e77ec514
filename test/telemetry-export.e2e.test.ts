import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { type FreshNamespace, migratedNamespace } from "@authsvc/adapters/testing";
import { productionServerEnv } from "@authsvc/http/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freePort } from "./support/free-port.js";
import { type OtlpReceiver, startOtlpReceiver } from "./support/otlp-receiver.js";
import { runServer, type ServerProcess, startServer } from "./support/server-process.js";

/**
 * What telemetry costs and risks: with it off no OpenTelemetry module is even loaded; with OTLP
 * metrics on they are pushed as protobuf; an unreachable collector never fails a request.
 */
const MODULE_LOG_IMPORT = `--import=${fileURLToPath(new URL("./support/module-log.mjs", import.meta.url))}`;
let ns: FreshNamespace;
let receiver: OtlpReceiver;
const cwd = mkdtempSync(join(tmpdir(), "authsvc-otel-export-"));
const servers: ServerProcess[] = [];

beforeAll(async () => {
  [ns, receiver] = await Promise.all([migratedNamespace(), startOtlpReceiver()]);
}, 60_000);

afterAll(async () => {
  await Promise.all(servers.map((s) => s.stop()));
  await receiver?.close();
  await ns?.drop();
  rmSync(cwd, { recursive: true, force: true });
});

/** Starts a server whose resolved OpenTelemetry modules are listed in the file returned. */
async function serverLoggingModules(name: string, extra: Record<string, string>) {
  const moduleLog = join(cwd, `${name}.modules`);
  const server = await startServer(
    productionServerEnv(ns, {
      NODE_OPTIONS: MODULE_LOG_IMPORT,
      TEST_MODULE_LOG: moduleLog,
      ...extra,
    }),
    { cwd },
  );
  servers.push(server);
  const modules = () => (existsSync(moduleLog) ? readFileSync(moduleLog, "utf8") : "");
  return { server, modules };
}

async function until(check: () => boolean, what: string, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe("telemetry export", () => {
  it("off: no OpenTelemetry module is loaded and requests are answered", async () => {
    const { server, modules } = await serverLoggingModules("off", {});
    expect((await fetch(`${server.url}/settings`)).status).toBe(200);
    expect(modules()).toBe("");
    // The test's own variable is read by its module hook, not the server: nothing to warn about.
    expect(
      server.lines().filter((line) => String(line.msg).includes("not a variable of this server")),
    ).toEqual([]);
  });

  it("OTLP metrics are pushed as protobuf to the configured collector", async () => {
    const { server, modules } = await serverLoggingModules("otlp", {
      AUTHSVC_METRICS_ENABLED: "true",
      OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
      OTEL_METRIC_EXPORT_INTERVAL: "200",
    });
    expect((await fetch(`${server.url}/settings`)).status).toBe(200);
    await until(
      () =>
        receiver.requests.some((r) => r.path === "/v1/metrics" && r.contentType === "application/x-protobuf"),
      "a metrics export",
    );
    expect(modules()).toContain("/@opentelemetry/sdk-node/");
  });

  it("an unreachable collector fails no request; its errors are logged, rate-limited", async () => {
    const closed = await freePort();
    const { server } = await serverLoggingModules("unreachable", {
      AUTHSVC_TRACING_ENABLED: "true",
      AUTHSVC_METRICS_ENABLED: "true",
      OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${closed}`,
      OTEL_BSP_SCHEDULE_DELAY: "50",
      OTEL_METRIC_EXPORT_INTERVAL: "100",
    });
    for (let i = 0; i < 20; i++) {
      const res = await fetch(`${server.url}/settings`);
      expect(res.status).toBe(200);
      await res.arrayBuffer();
    }
    const errors = () => server.lines().filter((l) => l.source === "opentelemetry" && l.level === "error");
    await until(() => errors().length > 0, "a logged export error");
    // Several exports fail every second; within the 30 s quiet period only the first is logged.
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(errors()).toHaveLength(1);
    expect((await fetch(`${server.url}/health/ready`)).status).toBe(200);
  });

  it("a Prometheus port already in use stops the start, naming it", async () => {
    const taken = createServer();
    await new Promise<void>((resolve) => taken.listen(0, "127.0.0.1", resolve));
    const port = (taken.address() as { port: number }).port;
    try {
      const exit = await runServer(
        productionServerEnv(ns, {
          AUTHSVC_METRICS_ENABLED: "true",
          AUTHSVC_METRICS_EXPORTER: "prometheus",
          OTEL_EXPORTER_PROMETHEUS_HOST: "127.0.0.1",
          OTEL_EXPORTER_PROMETHEUS_PORT: String(port),
        }),
        { cwd },
      );
      expect(exit.code).toBe(1);
      expect(exit.stderr).toContain(`the Prometheus metrics server cannot listen on 127.0.0.1:${port}`);
    } finally {
      taken.close();
    }
  });
});
