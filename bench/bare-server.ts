import { serve } from "@hono/node-server";
import { Hono } from "hono";

// The baseline: a bare Hono route on the same HTTP stack, measured in the same run as authsvc.
const app = new Hono().get("/bare", (c) => c.json({ ok: true }));
serve({ fetch: app.fetch, hostname: "127.0.0.1", port: 0 }, (info) => {
  process.stdout.write(`${JSON.stringify({ url: `http://127.0.0.1:${info.port}` })}\n`);
});
