import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { Webhook } from "standardwebhooks";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { httpHook } from "./http-hook.js";

/** A loopback hook endpoint whose behaviour each test sets; it keeps every request it got. */
type Handler = (req: IncomingMessage, res: ServerResponse, body: string) => void;
let handler: Handler;
const requests: { headers: IncomingMessage["headers"]; body: string }[] = [];
let server: Server;
let url: string;

beforeAll(async () => {
  server = createServer((req, res) => {
    let body = "";
    req.on("data", (chunk) => {
      body += chunk;
    });
    req.on("end", () => {
      requests.push({ headers: req.headers, body });
      handler(req, res, body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});
beforeEach(() => {
  requests.length = 0;
});

const json = (res: ServerResponse, status: number, value: unknown, headers: Record<string, string> = {}) => {
  res.writeHead(status, { "content-type": "application/json", ...headers });
  res.end(JSON.stringify(value));
};
const secretA = `v1,whsec_${Buffer.from("first secret of thirty-two bytes!!").toString("base64")}`;
const secretB = `v1,whsec_${Buffer.from("second secret of thirty-two bytes!").toString("base64")}`;
const fast = { backoffMs: 10, timeoutMs: 1_000 };

describe("httpHook", () => {
  it("posts the payload signed with every secret (Standard Webhooks) and resolves the JSON answer", async () => {
    handler = (_req, res) => json(res, 200, { claims: { a: 1 } });
    const answer = await httpHook({ url, secrets: [secretA, secretB], ...fast })('{"x":1}');
    expect(answer).toEqual({ ok: true, value: { claims: { a: 1 } } });
    const [request] = requests;
    expect(request?.body).toBe('{"x":1}');
    expect(request?.headers).toMatchObject({
      "content-type": "application/json",
      "webhook-id": expect.stringMatching(/^[0-9a-f-]{36}$/),
      "webhook-timestamp": expect.stringMatching(/^\d+$/),
    });
    const headers = request?.headers as Record<string, string>;
    // Each receiver holding one of the secrets accepts the request; a third secret does not.
    expect(new Webhook(secretA.slice(3)).verify('{"x":1}', headers)).toEqual({ x: 1 });
    expect(new Webhook(secretB.slice(3)).verify('{"x":1}', headers)).toEqual({ x: 1 });
    const other = `whsec_${Buffer.from("another secret, thirty-two bytes!").toString("base64")}`;
    expect(() => new Webhook(other).verify('{"x":1}', headers)).toThrow();
    expect(() => new Webhook(secretA.slice(3)).verify('{"x":2}', headers)).toThrow();
  });

  it("resolves an empty answer for 204", async () => {
    handler = (_req, res) => res.writeHead(204).end();
    expect(await httpHook({ url, secrets: [], ...fast })("{}")).toEqual({ ok: true, value: {} });
  });

  it("fails with the hook's own status and message when it answers an error object", async () => {
    handler = (_req, res) => json(res, 200, { error: { http_code: 429, message: "Slow down" } });
    const answer = await httpHook({ url, secrets: [], ...fast })("{}");
    expect(answer.ok).toBe(false);
    expect(!answer.ok && answer.error).toMatchObject({
      httpStatus: 429,
      message: "Slow down",
      code: "unknown",
    });
  });

  it("tries again on 429 or 503 with retry-after, at most three times; without retry-after it fails", async () => {
    let calls = 0;
    handler = (_req, res) =>
      ++calls < 3
        ? json(res, calls === 1 ? 429 : 503, {}, { "retry-after": "1" })
        : json(res, 200, { ok: 1 });
    expect(await httpHook({ url, secrets: [], ...fast })("{}")).toEqual({ ok: true, value: { ok: 1 } });
    expect(requests).toHaveLength(3);
    // A fresh id (and signature) per attempt.
    expect(new Set(requests.map((r) => r.headers["webhook-id"])).size).toBe(3);

    handler = (_req, res) => json(res, 503, {}, { "retry-after": "1" });
    const exhausted = await httpHook({ url, secrets: [], ...fast })("{}");
    expect(!exhausted.ok && exhausted.error.message).toBe("Service currently unavailable due to hook");
    handler = (_req, res) => json(res, 429, {});
    const plain = await httpHook({ url, secrets: [], ...fast })("{}");
    expect(!plain.ok && plain.error).toMatchObject({
      code: "unexpected_failure",
      message: "Service currently unavailable due to hook",
    });
  });

  it("names the status of a refusal as the reference does", async () => {
    const cases: [number, string][] = [
      [400, "Invalid payload sent to hook"],
      [401, "Hook requires authorization token"],
      [418, "Unexpected status code returned from hook: 418"],
    ];
    for (const [status, message] of cases) {
      handler = (_req, res) => json(res, status, {});
      const answer = await httpHook({ url, secrets: [], ...fast })("{}");
      expect(!answer.ok && answer.error).toMatchObject({ code: "unexpected_failure", message });
    }
  });

  it("refuses an answer that is not JSON, or larger than the limit", async () => {
    handler = (_req, res) => res.writeHead(200, { "content-type": "text/plain" }).end("ok");
    const text = await httpHook({ url, secrets: [], ...fast })("{}");
    expect(!text.ok && text.error.code).toBe("hook_payload_invalid_content_type");
    handler = (_req, res) => res.writeHead(200).end("{}");
    const untyped = await httpHook({ url, secrets: [], ...fast })("{}");
    expect(!untyped.ok && untyped.error.message).toBe("Invalid Content-Type: Missing Content-Type header");
    handler = (_req, res) => json(res, 200, { big: "x".repeat(2_000) });
    const big = await httpHook({ url, secrets: [], ...fast, responseLimit: 1_000 })("{}");
    expect(!big.ok && big.error).toMatchObject({
      code: "hook_payload_over_size_limit",
      message: "Payload size exceeded size limit of 1000 bytes",
    });
  });

  it("gives up at the deadline when the hook does not answer (hook_timeout)", async () => {
    handler = () => {}; // never answers
    const started = Date.now();
    const answer = await httpHook({ url, secrets: [], backoffMs: 10, timeoutMs: 300 })("{}");
    expect(!answer.ok && answer.error).toMatchObject({
      code: "hook_timeout",
      message: "Failed to reach hook within maximum time of 0.300000 seconds",
    });
    expect(Date.now() - started).toBeLessThan(2_000);
  });

  it("retries a connection that fails, then answers hook_timeout_after_retry", async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    const answer = await httpHook({ url: `http://127.0.0.1:${port}/`, secrets: [], ...fast })("{}");
    expect(!answer.ok && answer.error).toMatchObject({
      code: "hook_timeout_after_retry",
      message: "Failed to reach hook after maximum retries",
    });
  });
});
