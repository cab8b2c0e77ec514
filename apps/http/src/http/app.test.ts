import { describe, expect, it } from "vitest";
import { testApp } from "../testing/test-app.js";
import { readJsonObject } from "./middleware/json-body.js";

function appWithEcho(overrides: Parameters<typeof testApp>[0] = {}) {
  const { app, log } = testApp(overrides);
  // A body-reading route like the real JSON endpoints, to exercise the shared body handling.
  app.post("/echo", async (c) => c.json(await readJsonObject(c)));
  app.get("/boom", () => {
    throw new Error("database password=hunter2 exploded");
  });
  app.get("/slow", async (c) => {
    await new Promise((resolve) => setTimeout(resolve, 200));
    return c.json({});
  });
  return { app, log };
}

describe("error model", () => {
  it("unknown paths are a JSON 404 in the legacy shape with x-sb-error-code", async () => {
    const res = await testApp().app.request("/nope");
    expect(res.status).toBe(404);
    expect(res.headers.get("x-sb-error-code")).toBe("not_found");
    expect(await res.json()).toEqual({ code: 404, error_code: "not_found", msg: "Not found" });
  });

  it("a known path with the wrong method is a JSON 405 naming the allowed methods", async () => {
    const res = await testApp().app.request("/health", { method: "DELETE" });
    expect(res.status).toBe(405);
    expect(res.headers.get("allow")).toContain("GET");
    expect(res.headers.get("x-sb-error-code")).toBe("method_not_allowed");
    expect(await res.json()).toMatchObject({ code: 405, error_code: "method_not_allowed" });
  });

  it("X-Supabase-Api-Version >= 2024-01-01 selects the {code, message} shape and is echoed", async () => {
    const res = await testApp().app.request("/nope", { headers: { "X-Supabase-Api-Version": "2024-06-30" } });
    expect(res.status).toBe(404);
    expect(res.headers.get("x-supabase-api-version")).toBe("2024-01-01");
    expect(res.headers.get("x-sb-error-code")).toBe("not_found");
    expect(await res.json()).toEqual({ code: "not_found", message: "Not found" });
  });

  it.each(["2023-12-31", "yesterday", "2024-02-30", ""])(
    "api version %j keeps the legacy shape",
    async (v) => {
      const res = await testApp().app.request("/nope", { headers: { "X-Supabase-Api-Version": v } });
      expect(res.headers.get("x-supabase-api-version")).toBeNull();
      expect(await res.json()).toMatchObject({ code: 404, error_code: "not_found" });
    },
  );

  it("an unexpected fault is a 500 unexpected_failure with the request id and no internals", async () => {
    const { app, log } = appWithEcho();
    const res = await app.request("/boom", { headers: {} });
    expect(res.status).toBe(500);
    const body = (await res.json()) as Record<string, unknown>;
    const requestId = res.headers.get("x-request-id");
    expect(body).toEqual({
      code: 500,
      error_code: "unexpected_failure",
      msg: "Unexpected failure, please check server logs for more information",
      error_id: requestId,
    });
    expect(JSON.stringify(body)).not.toContain("hunter2");
    const failure = log.lines().find((l) => l.msg === "request failed");
    expect(failure?.request_id).toBe(requestId);
  });

  it("the new shape of a 500 keeps the request id too", async () => {
    const { app } = appWithEcho();
    const res = await app.request("/boom", { headers: { "X-Supabase-Api-Version": "2024-01-01" } });
    const body = (await res.json()) as Record<string, unknown>;
    expect(body).toEqual({
      code: "unexpected_failure",
      message: "Unexpected failure, please check server logs for more information",
      error_id: res.headers.get("x-request-id"),
    });
  });

  it("a request running past the time limit is a 504 request_timeout", async () => {
    const { app } = appWithEcho({ maxRequestDurationMs: 50 });
    const res = await app.request("/slow");
    expect(res.status).toBe(504);
    expect(await res.json()).toMatchObject({ code: 504, error_code: "request_timeout" });
  });
});

describe("request bodies", () => {
  it("parses a JSON object", async () => {
    const res = await appWithEcho().app.request("/echo", { method: "POST", body: JSON.stringify({ a: 1 }) });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ a: 1 });
  });

  it.each(["{", "[1,2]", "null", '"text"', '{"a":}'])(
    "malformed or non-object JSON %j is 400 bad_json",
    async (body) => {
      const res = await appWithEcho().app.request("/echo", { method: "POST", body });
      expect(res.status).toBe(400);
      expect(res.headers.get("x-sb-error-code")).toBe("bad_json");
      expect(await res.json()).toMatchObject({ code: 400, error_code: "bad_json" });
    },
  );

  it("a body over 1 MiB is 413 request_entity_too_large", async () => {
    const big = JSON.stringify({ a: "x".repeat(1 << 20) });
    const res = await appWithEcho().app.request("/echo", { method: "POST", body: big });
    expect(res.status).toBe(413);
    expect(await res.json()).toEqual({
      code: 413,
      error_code: "request_entity_too_large",
      msg: "Request body too large (max 1048576 bytes)",
    });
  });

  it("a body of exactly 1 MiB is accepted", async () => {
    const exact = JSON.stringify({ a: "x".repeat((1 << 20) - 8) });
    expect(exact.length).toBe(1 << 20);
    const res = await appWithEcho().app.request("/echo", { method: "POST", body: exact });
    expect(res.status).toBe(200);
  });
});

describe("request ids", () => {
  it("generates a UUID, returns it and stamps it on every log line of the request", async () => {
    const { app, log } = testApp();
    const res = await app.request("/settings");
    const id = res.headers.get("x-request-id");
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
    const completed = log.lines().filter((l) => l.msg === "request completed");
    expect(completed).toHaveLength(1);
    expect(completed[0]).toMatchObject({ request_id: id, status: 200, path: "/settings", method: "GET" });
  });

  it("inherits the id from the configured header and sends it back in that header", async () => {
    const { app, log } = testApp({ requestIdHeader: "X-Trace-Id" });
    const res = await app.request("/settings", { headers: { "X-Trace-Id": "trace-123" } });
    expect(res.headers.get("x-trace-id")).toBe("trace-123");
    expect(log.lines().every((l) => l.request_id === "trace-123")).toBe(true);
  });

  it("ignores an inherited id that is not printable and makes a fresh one", async () => {
    const { app } = testApp({ requestIdHeader: "X-Trace-Id" });
    const res = await app.request("/settings", { headers: { "X-Trace-Id": "a b\tc" } });
    expect(res.headers.get("x-trace-id")).toMatch(/^[0-9a-f-]{36}$/);
  });
});

describe("CORS", () => {
  it("answers a preflight from any origin with credentials and the reference's headers", async () => {
    const res = await testApp().app.request("/settings", {
      method: "OPTIONS",
      headers: {
        Origin: "https://app.example",
        "Access-Control-Request-Method": "POST",
        "Access-Control-Request-Headers": "authorization,x-supabase-api-version",
      },
    });
    expect(res.status).toBe(204);
    expect(res.headers.get("access-control-allow-origin")).toBe("https://app.example");
    expect(res.headers.get("access-control-allow-credentials")).toBe("true");
    expect(res.headers.get("access-control-allow-headers")?.toLowerCase()).toContain(
      "x-supabase-api-version",
    );
    expect(res.headers.get("access-control-allow-methods")).toContain("PUT");
  });

  it("exposes the pagination and version headers to the browser", async () => {
    const res = await testApp().app.request("/settings", { headers: { Origin: "https://app.example" } });
    expect(res.headers.get("access-control-expose-headers")).toContain("X-Total-Count");
    expect(res.headers.get("access-control-expose-headers")).toContain("Link");
  });

  it("lets a browser client send a DPoP proof and read the nonce and challenge answered (RFC 9449)", async () => {
    const { app } = testApp();
    const preflight = await app.request("/oauth/token", {
      method: "OPTIONS",
      headers: {
        Origin: "https://app.example",
        "Access-Control-Request-Method": "POST",
        "Access-Control-Request-Headers": "dpop,content-type",
      },
    });
    expect(preflight.headers.get("access-control-allow-headers")?.toLowerCase()).toContain("dpop");
    for (const path of ["/oauth/token", "/oauth/userinfo"]) {
      const res = await app.request(path, { headers: { Origin: "https://app.example" } });
      const exposed = res.headers.get("access-control-expose-headers")?.split(",") ?? [];
      expect(exposed).toEqual(expect.arrayContaining(["DPoP-Nonce", "WWW-Authenticate"]));
    }
  });

  it("answers ordinary requests and errors with the CORS, request id and version headers", async () => {
    const { app } = testApp();
    const headers = { Origin: "https://app.example", "X-Supabase-Api-Version": "2024-01-01" };
    for (const [path, status] of [
      ["/settings", 200],
      ["/user", 401],
      ["/no-such-route", 404],
    ] as const) {
      const res = await app.request(path, { headers });
      expect(res.status).toBe(status);
      expect(res.headers.get("access-control-allow-origin")).toBe("https://app.example");
      expect(res.headers.get("access-control-allow-credentials")).toBe("true");
      expect(res.headers.get("vary")).toBe("Origin");
      expect(res.headers.get("x-request-id")).toMatch(/^[0-9a-f-]{36}$/);
      expect(res.headers.get("x-supabase-api-version")).toBe("2024-01-01");
    }
    const plain = await app.request("/settings");
    expect(plain.headers.get("access-control-allow-origin")).toBe("*");
  });
});
