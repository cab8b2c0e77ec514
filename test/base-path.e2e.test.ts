import { randomUUID } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type FreshNamespace, migratedNamespace } from "@authsvc/adapters/testing";
import { productionServerEnv, roleKey } from "@authsvc/http/testing";
import { GoTrueAdminApi } from "@supabase/auth-js";
import { createClient } from "@supabase/supabase-js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freePort } from "./support/free-port.js";
import { type ServerProcess, startServer } from "./support/server-process.js";

/**
 * supabase-js's `createClient(url, key)` talks to auth at `<url>/auth/v1`: pointed at authsvc itself,
 * it must work unchanged, and links built with an `API_EXTERNAL_URL` ending in `/auth/v1` must lead
 * back to the API.
 */
let server: ServerProcess;
let ns: FreshNamespace;
let anonKey: string;
let serviceKey: string;
const cwd = mkdtempSync(join(tmpdir(), "authsvc-base-path-"));

beforeAll(async () => {
  [ns, anonKey, serviceKey] = await Promise.all([
    migratedNamespace(),
    roleKey("anon"),
    roleKey("service_role"),
  ]);
  // The external URL names the port, so the port is chosen before the server starts.
  const port = await freePort();
  server = await startServer(
    productionServerEnv(ns, {
      PORT: String(port),
      AUTHSVC_API_EXTERNAL_URL: `http://127.0.0.1:${port}/auth/v1`,
      AUTHSVC_MAILER_AUTOCONFIRM: "true",
    }),
    { cwd },
  );
}, 60_000);

afterAll(async () => {
  await server?.stop();
  await ns?.drop();
  rmSync(cwd, { recursive: true, force: true });
});

/** Node 20 has no WebSocket; realtime is not used here, so its transport refuses to be opened. */
class NoWebSocket {
  constructor() {
    throw new Error("realtime is not used by this test");
  }
}

const supabase = () =>
  createClient(server.url, anonKey, {
    auth: { persistSession: false, autoRefreshToken: false },
    realtime: { transport: NoWebSocket as never },
  });

describe("the API under /auth/v1", () => {
  it("supabase-js signs up, signs in and reads the user through createClient(url, key)", async () => {
    const email = `sb-${randomUUID()}@example.com`;
    const client = supabase();
    const signUp = await client.auth.signUp({ email, password: "a-long-password-1" });
    expect(signUp.error).toBeNull();
    expect(signUp.data.session?.access_token).toEqual(expect.any(String));

    const signIn = await client.auth.signInWithPassword({ email, password: "a-long-password-1" });
    expect(signIn.error).toBeNull();
    const user = await client.auth.getUser(signIn.data.session?.access_token);
    expect(user.error).toBeNull();
    expect(user.data.user?.email).toBe(email);
  });

  it("links built with API_EXTERNAL_URL lead to /auth/v1/verify, which signs the user in", async () => {
    const email = `link-${randomUUID()}@example.com`;
    const admin = new GoTrueAdminApi({
      url: `${server.url}/auth/v1`,
      headers: { Authorization: `Bearer ${serviceKey}`, apikey: serviceKey },
    });
    expect((await admin.createUser({ email, email_confirm: true })).error).toBeNull();
    const link = await admin.generateLink({ type: "magiclink", email });
    expect(link.error).toBeNull();
    const action = new URL(link.data.properties?.action_link ?? "");
    expect(`${action.origin}${action.pathname}`).toBe(`${server.url}/auth/v1/verify`);

    const res = await fetch(action, { redirect: "manual" });
    expect(res.status).toBe(303);
    const location = res.headers.get("location") ?? "";
    expect(location.startsWith("http://localhost:3000")).toBe(true);
    expect(new URLSearchParams(new URL(location).hash.slice(1)).get("access_token")).toEqual(
      expect.any(String),
    );
  });

  it("answers the same at the root and a 404 outside the base paths", async () => {
    expect((await fetch(`${server.url}/health`)).status).toBe(200);
    expect((await fetch(`${server.url}/auth/v1/health`)).status).toBe(200);
    const other = await fetch(`${server.url}/auth/v2/health`);
    expect(other.status).toBe(404);
    const ready = await fetch(`${server.url}/auth/v1/health/ready`);
    expect(ready.status).toBe(200);
    // No SMTP here: invitations cannot be mailed, which readiness names without answering unready.
    expect(await ready.json()).toEqual({
      status: "ok",
      checks: { database: "ok" },
      warnings: { mail: expect.stringContaining("invitations") },
    });
  });
});
