import { randomUUID } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type FreshNamespace, migratedNamespace } from "@authsvc/adapters/testing";
import { productionServerEnv, roleKey } from "@authsvc/http/testing";
import { GoTrueAdminApi, GoTrueClient } from "@supabase/auth-js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freePort } from "./support/free-port.js";
import { type OtlpReceiver, type ReceivedSpan, startOtlpReceiver } from "./support/otlp-receiver.js";
import { sample, scrape } from "./support/prometheus.js";
import { type ServerProcess, startServer } from "./support/server-process.js";

/**
 * The built server with tracing (OTLP/HTTP protobuf to a loopback receiver) and metrics (Prometheus
 * on a port of its own) on, driven by the official client: what a collector and a scraper see.
 */
let server: ServerProcess;
let receiver: OtlpReceiver;
let metricsUrl: string;
let ns: FreshNamespace;
let serviceKey: string;
const cwd = mkdtempSync(join(tmpdir(), "authsvc-otel-"));
const PASSWORD = "a-long-password-1";

beforeAll(async () => {
  [ns, receiver, serviceKey] = await Promise.all([
    migratedNamespace(),
    startOtlpReceiver(),
    roleKey("service_role"),
  ]);
  const port = await freePort();
  metricsUrl = `http://127.0.0.1:${port}/`;
  server = await startServer(
    productionServerEnv(ns, {
      AUTHSVC_MAILER_AUTOCONFIRM: "true",
      AUTHSVC_TRACING_ENABLED: "true",
      AUTHSVC_METRICS_ENABLED: "true",
      AUTHSVC_METRICS_EXPORTER: "prometheus",
      OTEL_EXPORTER_PROMETHEUS_HOST: "127.0.0.1",
      OTEL_EXPORTER_PROMETHEUS_PORT: String(port),
      OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
      // Spans are exported in batches; a short delay keeps the test quick.
      OTEL_BSP_SCHEDULE_DELAY: "100",
      OTEL_RESOURCE_ATTRIBUTES: "deployment.environment=e2e",
    }),
    { cwd },
  );
}, 60_000);

afterAll(async () => {
  await server?.stop();
  await receiver?.close();
  await ns?.drop();
  rmSync(cwd, { recursive: true, force: true });
});

const client = () => new GoTrueClient({ url: server.url, autoRefreshToken: false, persistSession: false });
const admin = () =>
  new GoTrueAdminApi({ url: server.url, headers: { Authorization: `Bearer ${serviceKey}` } });

/** Every span of the trace, below `root` (children, their children, …). */
function descendants(root: ReceivedSpan): ReceivedSpan[] {
  const found: ReceivedSpan[] = [];
  const parents = new Set([root.spanId]);
  let grew = true;
  while (grew) {
    grew = false;
    for (const span of receiver.spans) {
      if (span.traceId === root.traceId && parents.has(span.parentSpanId) && !parents.has(span.spanId)) {
        parents.add(span.spanId);
        found.push(span);
        grew = true;
      }
    }
  }
  return found;
}

describe("traces", () => {
  it("name the server span of PUT /admin/users/<uuid> by its route, with its parameter, status and request id", async () => {
    const email = `otel-${randomUUID()}@example.com`;
    const created = await admin().createUser({ email, password: PASSWORD, email_confirm: true });
    const id = created.data.user?.id ?? "";
    expect(id).not.toBe("");
    // A caller's trace is continued: its trace id and span id become the server span's parent.
    const traceId = randomUUID().replaceAll("-", "");
    const parentId = "00f067aa0ba902b7";
    const res = await fetch(`${server.url}/admin/users/${id}`, {
      method: "PUT",
      headers: {
        authorization: `Bearer ${serviceKey}`,
        "content-type": "application/json",
        traceparent: `00-${traceId}-${parentId}-01`,
      },
      body: JSON.stringify({ user_metadata: { plan: "pro" }, password: "another-long-password-2" }),
    });
    expect(res.status).toBe(200);

    const span = await receiver.waitForSpan(
      (s) => s.name === "PUT /admin/users/{user_id}" && s.traceId === traceId,
    );
    expect(span.parentSpanId).toBe(parentId);
    expect(span.kind).toBe(2); // SPAN_KIND_SERVER
    expect(span.attributes).toMatchObject({
      "http.route": "/admin/users/{user_id}",
      "http.route.params.user_id": id,
      "http.request.method": "PUT",
      "http.method": "PUT",
      "http.response.status_code": 200,
      "http.status_code": 200,
      "authsvc.request_id": res.headers.get("x-request-id"),
    });
    expect(span.resource).toMatchObject({
      "service.name": "authsvc",
      "auth.version": expect.stringMatching(/^\d+\.\d+\.\d+/),
      "deployment.environment": "e2e",
    });

    // Children arrive in the same or a later batch than their parent's end; wait for the hash.
    await receiver.waitForSpan((s) => s.traceId === traceId && s.name === "password.hash");
    const children = descendants(span);
    const db = children.filter((s) => s.attributes["db.system"] === "postgresql");
    expect(db.map((s) => s.attributes["db.operation"])).toEqual(
      expect.arrayContaining(["transaction", "users.lock", "users.update", "audit.record"]),
    );
    expect(children.map((s) => s.name)).toContain("password.hash");
    // Nothing secret or personal becomes an attribute.
    const values = JSON.stringify(children.concat(span).map((s) => s.attributes));
    expect(values).not.toContain("another-long-password-2");
    expect(values).not.toContain(email);
  });

  it("give a request no route answers its method as name, and do not trace /health", async () => {
    const traceId = randomUUID().replaceAll("-", "");
    const traceparent = `00-${traceId}-00f067aa0ba902b7-01`;
    expect((await fetch(`${server.url}/health`, { headers: { traceparent } })).status).toBe(200);
    expect((await fetch(`${server.url}/no/such/path`, { headers: { traceparent } })).status).toBe(404);
    const unmatched = await receiver.waitForSpan((s) => s.traceId === traceId);
    expect(unmatched.name).toBe("GET");
    expect(unmatched.attributes["url.path"]).toBe("/no/such/path");
    expect(receiver.spans.filter((s) => s.traceId === traceId)).toHaveLength(1);
  });
});

describe("metrics", () => {
  it("serve the reference's and authsvc's metrics at / of the Prometheus port, moving as flows run", async () => {
    const before = await scrape(metricsUrl);
    const email = `flows-${randomUUID()}@example.com`;
    const auth = client();
    const signUp = await auth.signUp({ email, password: PASSWORD });
    expect(signUp.error).toBeNull();
    const wrong = await auth.signInWithPassword({ email, password: "not-the-password" });
    expect(wrong.error?.code).toBe("invalid_credentials");
    const signedIn = await auth.signInWithPassword({ email, password: PASSWORD });
    expect(signedIn.error).toBeNull();
    const first = signedIn.data.session?.refresh_token ?? "";
    const refreshed = await auth.refreshSession({ refresh_token: first });
    expect(refreshed.error).toBeNull();
    // Presenting the first token again, once rotated and past the reuse interval's child, is reuse.
    const second = refreshed.data.session?.refresh_token ?? "";
    expect((await auth.refreshSession({ refresh_token: second })).error).toBeNull();
    const reused = await auth.refreshSession({ refresh_token: first });
    expect(reused.error?.code).toBe("refresh_token_already_used");

    const after = await scrape(metricsUrl);
    const moved = (name: string, labels: Record<string, string> = {}) =>
      (sample(after, name, labels) ?? 0) - (sample(before, name, labels) ?? 0);

    expect(sample(after, "gotrue_running")).toBe(1);
    expect(sample(after, "global_auth_version_major")).toBeGreaterThanOrEqual(0);
    expect(moved("authsvc_sign_ups_total")).toBe(1);
    // Sign-up with autoconfirm starts a session too: two password sign-ins.
    expect(moved("authsvc_sign_ins_total", { method: "password" })).toBe(2);
    expect(moved("authsvc_refresh_token_rotations_total")).toBe(2);
    expect(moved("authsvc_refresh_token_reuse_detections_total")).toBe(1);
    expect(
      moved("gotrue_compare_hash_and_password_completed_total", { alg: "argon2id", match: "true" }),
    ).toBe(1);
    expect(
      moved("gotrue_compare_hash_and_password_completed_total", { alg: "argon2id", match: "false" }),
    ).toBe(1);
    expect(moved("gotrue_generate_from_password_completed_total", { alg: "argon2id", m: "19456" })).toBe(1);
    expect(moved("http_status_codes_total", { code: "400", http_route: "/token" })).toBe(2);
    expect(moved("http_server_request_duration_count", { http_route: "/token" })).toBe(5);
    expect(sample(after, "authsvc_db_pool_max")).toBeGreaterThan(0);
    expect(sample(after, "authsvc_db_pool_in_use")).toBeGreaterThanOrEqual(0);
    // Node runtime metrics (event loop, heap) come from their instrumentation.
    expect(after).toMatch(/^nodejs_eventloop_delay_\w+/m);
    expect(after).toMatch(/^v8js_memory_heap_used\w*/m);
    expect(after).not.toContain(email);
  });
});
