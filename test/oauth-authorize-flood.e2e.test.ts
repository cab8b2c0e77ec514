import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type FreshNamespace, migratedNamespace } from "@authsvc/adapters/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startOAuthServer } from "./support/oauth-server.js";
import type { ServerProcess } from "./support/server-process.js";

/**
 * `GET /oauth/authorize` stores a request for anyone who asks, unauthenticated. Against the built
 * server with its default settings (no `RATE_LIMIT_HEADER`): what one request may store, and how many
 * requests one client address gets stored in a flood.
 */
let ns: FreshNamespace;
let server: ServerProcess & { issuer: string };
const cwd = mkdtempSync(join(tmpdir(), "authsvc-oauth-flood-"));
const REDIRECT = "http://127.0.0.1:8123/callback";

beforeAll(async () => {
  ns = await migratedNamespace();
  server = await startOAuthServer(ns, cwd);
}, 60_000);

afterAll(async () => {
  await server?.stop();
  await ns?.drop();
  rmSync(cwd, { recursive: true, force: true });
});

async function registerClient(): Promise<string> {
  const response = await fetch(`${server.url}/oauth/clients/register`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ redirect_uris: [REDIRECT], token_endpoint_auth_method: "none" }),
  });
  expect(response.status).toBe(201);
  return ((await response.json()) as { client_id: string }).client_id;
}

const authorize = (clientId: string, extra: Record<string, string> = {}) =>
  fetch(
    `${server.url}/oauth/authorize?${new URLSearchParams({
      client_id: clientId,
      redirect_uri: REDIRECT,
      code_challenge: "c".repeat(43),
      code_challenge_method: "S256",
      ...extra,
    })}`,
    { redirect: "manual" },
  );

describe("a flood of GET /oauth/authorize from one client address", () => {
  it("refuses what exceeds the stored fields' bounds, and of 500 more stores only what remains of the burst of 30, answering the rest 429", async () => {
    const clientId = await registerClient();
    const table = ns.sql`${ns.sql(ns.namespace)}.oauth_authorizations`;
    for (const [field, value] of [
      ["state", "s".repeat(4097)],
      ["scope", `${" ".repeat(4093)}email`],
      ["resource", `https://api.example/${"r".repeat(2030)}`],
      ["nonce", "n".repeat(256)],
    ] as const) {
      const refused = await authorize(clientId, { [field]: value });
      expect(refused.status, field).toBe(400);
      expect(((await refused.json()) as { error: string }).error, field).toBe("invalid_request");
    }
    const statuses = new Map<number, number>();
    // Random, so that nothing is compressed away: the most one request may store.
    const noise = (length: number) => randomBytes(length).toString("base64url").slice(0, length);
    const biggest = {
      state: noise(4096),
      resource: `https://api.example/${noise(2028)}`,
      nonce: noise(255),
    };
    for (let i = 0; i < 500; i++) {
      const status = (await authorize(clientId, biggest)).status;
      statuses.set(status, (statuses.get(status) ?? 0) + 1);
    }
    // The four refused above were counted too: 26 of the burst of 30 remained.
    expect(Object.fromEntries(statuses)).toEqual({ 302: 26, 429: 474 });
    const [stored] = await ns.sql<{ rows: number; bytes: number }[]>`
      select count(*)::int as rows, coalesce(sum(pg_column_size(t.*)), 0)::int as bytes
      from ${table} t where client_id = ${clientId}`;
    expect(stored?.rows).toBe(26);
    // Each at most ~7 KB (4096 + 2048 + 255 and the rest), TOAST-compressed where it repeats.
    expect(stored?.bytes).toBeLessThan(26 * 7_000);
    console.log(
      `oauth_authorizations after 500 requests from one address: ${stored?.rows} rows, ${stored?.bytes} bytes`,
    );
  }, 60_000);
});
