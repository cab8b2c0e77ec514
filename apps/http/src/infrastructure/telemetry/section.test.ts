import { describe, expect, it } from "vitest";
import { loadConfig } from "../../composition/config.js";

const production = {
  AUTHSVC_DB_DATABASE_URL: "postgres://authsvc@db.internal:5432/authsvc",
  AUTHSVC_SITE_URL: "https://app.example.com",
  AUTHSVC_API_EXTERNAL_URL: "https://auth.example.com",
  AUTHSVC_JWT_SECRET: "jwt-secret-for-tests-0123456789",
};

function load(extra: Record<string, string>) {
  const result = loadConfig({ ...production, ...extra });
  if (!result.ok) throw new Error(result.problems.join("\n"));
  return result.config;
}

describe("telemetry and base path settings", () => {
  it("turn traces and metrics on, reading the Prometheus address and resource attributes unprefixed too", () => {
    const config = load({
      AUTHSVC_TRACING_ENABLED: "true",
      AUTHSVC_METRICS_ENABLED: "true",
      AUTHSVC_METRICS_EXPORTER: "prometheus",
      OTEL_EXPORTER_PROMETHEUS_HOST: "127.0.0.1",
      OTEL_EXPORTER_PROMETHEUS_PORT: "9464",
      OTEL_RESOURCE_ATTRIBUTES: "deployment.environment=prod",
    });
    expect(config.tracing).toEqual({ enabled: true, exporter: "opentelemetry" });
    expect(config.metrics).toEqual({
      enabled: true,
      exporter: "prometheus",
      prometheus: { host: "127.0.0.1", port: 9464 },
    });
    expect(config.otel).toEqual({ resourceAttributes: "deployment.environment=prod", debug: false });
  });

  it("take DEBUG=true as verbose diagnostics, and ignore a DEBUG meant for other tools", () => {
    expect(load({ DEBUG: "true" }).otel.debug).toBe(true);
    expect(load({ DEBUG: "express:*" }).otel.debug).toBe(false);
  });

  it("read the base paths, and refuse one that is not a path", () => {
    expect(load({ AUTHSVC_API_BASE_PATHS: "/auth/v1" }).api.basePaths).toEqual(["/auth/v1"]);
    const result = loadConfig({ ...production, AUTHSVC_API_BASE_PATHS: "/, auth/v1" });
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.problems.join("\n")).toContain("AUTHSVC_API_BASE_PATHS");
  });
});
