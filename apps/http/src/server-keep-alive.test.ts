import { Agent, request } from "node:http";
import type { Hono } from "hono";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MAX_BODY_BYTES } from "./http/middleware/json-body.js";
import { listen, type RunningServer } from "./server.js";
import { testApp } from "./testing/test-app.js";

/**
 * Issue: a body over the limit got 413 with `connection: keep-alive`, the server then closed the
 * socket anyway, and the client's next request on that connection failed ("other side closed").
 */
interface Answer {
  status: number;
  connection: string | undefined;
  body: string;
}

function send(agent: Agent, url: string, method: string, path: string, body?: Buffer): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request(`${url}${path}`, {
      agent,
      method,
      headers: body ? { "content-type": "application/json", "content-length": body.length } : {},
    });
    req.on("response", (res) => {
      let text = "";
      res.on("data", (chunk: Buffer) => {
        text += chunk.toString();
      });
      res.on("end", () =>
        resolve({ status: res.statusCode ?? 0, connection: res.headers.connection, body: text }),
      );
    });
    // The server may stop reading an oversized body: that write error is not the answer.
    req.on("error", reject);
    req.end(body);
  });
}

let server: RunningServer;
beforeAll(async () => {
  // As compose.ts does: listen() takes the app with its environment type erased.
  server = await listen(testApp().app as unknown as Hono, { host: "127.0.0.1", port: 0 });
});
afterAll(() => server.close());

describe("a keep-alive client after a 413", () => {
  it("is told the connection closes, and its next request on the same agent succeeds", async () => {
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    try {
      const big = Buffer.from(
        JSON.stringify({ email: "a@example.com", data: "x".repeat(MAX_BODY_BYTES + 1) }),
      );
      const refused = await send(agent, server.url, "POST", "/signup", big);
      expect(refused.status).toBe(413);
      expect(JSON.parse(refused.body)).toMatchObject({ error_code: "request_entity_too_large" });
      expect(refused.connection).toBe("close");

      const next = await send(agent, server.url, "GET", "/health");
      expect(next.status).toBe(200);
      // Requests read in full keep their connection.
      expect(next.connection).toBe("keep-alive");
      const small = await send(agent, server.url, "POST", "/signup", Buffer.from("{}"));
      expect(small.status).toBe(422);
      expect(small.connection).toBe("keep-alive");
    } finally {
      agent.destroy();
    }
  });
});
