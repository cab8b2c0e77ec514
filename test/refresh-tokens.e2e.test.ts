import { createHash } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type FreshNamespace, migratedNamespace } from "@authsvc/adapters/testing";
import { productionServerEnv } from "@authsvc/http/testing";
import { afterAll, beforeAll, expect, it } from "vitest";
import { type DatabaseRoute, describeEachDatabaseRoute, type OpenRoute } from "./support/database-routes.js";
import { type ServerProcess, startServer } from "./support/server-process.js";

/**
 * Every rule of refresh-token rotation (docs/http-api.md, Refresh tokens) over raw HTTP, on real server processes sharing one
 * database: `a` and `b` with the default 10 s reuse interval, `strict` with an interval of 0, so
 * "after the interval" needs no waiting. All of it twice: the servers reaching the database directly,
 * then through PgBouncer in transaction mode.
 */
let a: ServerProcess;
let b: ServerProcess;
let strict: ServerProcess;
let ns: FreshNamespace;
const cwd = mkdtempSync(join(tmpdir(), "authsvc-refresh-"));

afterAll(() => rmSync(cwd, { recursive: true, force: true }));

/** The three servers on a new namespace, reaching the database by `route`. */
function serversThrough(route: DatabaseRoute) {
  let opened: OpenRoute | undefined;
  beforeAll(async () => {
    [ns, opened] = await Promise.all([migratedNamespace(), route.open()]);
    const env = { ...productionServerEnv(ns, { AUTHSVC_MAILER_AUTOCONFIRM: "true" }), ...opened.env };
    [a, b, strict] = await Promise.all([
      startServer(env, { cwd }),
      startServer(env, { cwd }),
      startServer({ ...env, AUTHSVC_SECURITY_REFRESH_TOKEN_REUSE_INTERVAL: "0" }, { cwd }),
    ]);
  }, 60_000);

  afterAll(async () => {
    await Promise.all([a?.stop(), b?.stop(), strict?.stop()]);
    await opened?.close();
    await ns?.drop();
  });
}

let counter = 0;

async function post(
  server: ServerProcess,
  path: string,
  body: unknown,
  headers: Record<string, string> = {},
) {
  const res = await fetch(`${server.url}${path}`, {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: JSON.stringify(body),
  });
  return { status: res.status, headers: res.headers, body: (await res.json()) as Record<string, unknown> };
}

/** A new user's first refresh token. */
async function freshToken(): Promise<string> {
  const email = `rt-${Date.now()}-${++counter}@example.com`;
  const res = await post(a, "/signup", { email, password: "secret-pw" });
  expect(res.status).toBe(200);
  return String(res.body.refresh_token);
}

const refresh = (server: ServerProcess, token: string) =>
  post(server, "/token?grant_type=refresh_token", { refresh_token: token });

const alreadyUsed = {
  status: 400,
  body: { code: 400, error_code: "refresh_token_already_used", msg: "Invalid Refresh Token: Already Used" },
};

/** A token of a session ended by reuse detection: the chain went with the session. */
const sessionEnded = { status: 400, body: { error_code: "refresh_token_not_found" } };

async function getUser(server: ServerProcess, accessToken: string) {
  const res = await fetch(`${server.url}/user`, { headers: { authorization: `Bearer ${accessToken}` } });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

describeEachDatabaseRoute("refresh token rotation and reuse detection", (route) => {
  serversThrough(route);

  it("a fresh token is exchanged for a new one", async () => {
    const t0 = await freshToken();
    const res = await refresh(a, t0);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      token_type: "bearer",
      expires_in: 3600,
      refresh_token: expect.any(String),
    });
    expect(res.body.refresh_token).not.toBe(t0);
    expect(String(res.body.refresh_token).length).toBeGreaterThanOrEqual(22);
  });

  it("the previous token inside the interval returns the current child: the same token, every time", async () => {
    const t0 = await freshToken();
    const t1 = (await refresh(a, t0)).body.refresh_token;
    const again = await refresh(b, t0);
    const third = await refresh(a, t0);
    expect(again.status).toBe(200);
    expect(again.body.refresh_token).toBe(t1);
    expect(third.body.refresh_token).toBe(t1);
    // The child still works normally afterwards.
    expect((await refresh(a, String(t1))).status).toBe(200);
  });

  it("the previous token after the interval is refused and ends the session: its tokens and access tokens stop working", async () => {
    const t0 = await freshToken();
    const rotated = await refresh(strict, t0);
    const t1 = String(rotated.body.refresh_token);
    const access = String(rotated.body.access_token);
    expect((await getUser(strict, access)).status).toBe(200);
    const reuse = await refresh(strict, t0);
    expect(reuse).toMatchObject(alreadyUsed);
    expect(await refresh(strict, t1)).toMatchObject(sessionEnded);
    expect(await getUser(strict, access)).toMatchObject({
      status: 403,
      body: { error_code: "session_not_found" },
    });
  });

  it("an older token, even inside the interval, is refused and ends the session with its descendants", async () => {
    const t0 = await freshToken();
    const t1 = String((await refresh(a, t0)).body.refresh_token);
    const second = await refresh(a, t1);
    const t2 = String(second.body.refresh_token);
    expect(await refresh(a, t0)).toMatchObject(alreadyUsed);
    expect(await refresh(a, t2)).toMatchObject(sessionEnded);
    expect(await refresh(a, t1)).toMatchObject(sessionEnded);
    expect((await getUser(b, String(second.body.access_token))).status).toBe(403);
  });

  it("16 parallel refreshes of one token across two instances all receive one and the same child", async () => {
    const t0 = await freshToken();
    const results = await Promise.all(Array.from({ length: 16 }, (_, i) => refresh(i % 2 === 0 ? a : b, t0)));
    expect(results.map((r) => r.status)).toEqual(Array(16).fill(200));
    const children = new Set(results.map((r) => r.body.refresh_token));
    expect(children.size).toBe(1);
    const childHash = createHash("sha256")
      .update(String([...children][0]))
      .digest("hex");
    const live = await ns.sql`
      select count(*)::int as n from ${ns.sql(ns.namespace)}.refresh_tokens t
      where not t.revoked and t.session_id =
        (select session_id from ${ns.sql(ns.namespace)}.refresh_tokens where token_hash = ${childHash})`;
    expect(live[0]?.n).toBe(1);
  });

  it("stores refresh tokens only as SHA-256 hashes", async () => {
    const t0 = await freshToken();
    const rows = await ns.sql`select token_hash from ${ns.sql(ns.namespace)}.refresh_tokens`;
    expect(rows.length).toBeGreaterThan(0);
    for (const row of rows) expect(row.token_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(rows.map((r) => r.token_hash)).not.toContain(t0);
  });

  it("an unknown token is 400 refresh_token_not_found, in both error shapes", async () => {
    const legacy = await refresh(a, "no-such-token-000000");
    expect(legacy).toMatchObject({
      status: 400,
      body: {
        code: 400,
        error_code: "refresh_token_not_found",
        msg: "Invalid Refresh Token: Refresh Token Not Found",
      },
    });
    expect(legacy.headers.get("x-sb-error-code")).toBe("refresh_token_not_found");
    const versioned = await post(
      a,
      "/token?grant_type=refresh_token",
      { refresh_token: "no-such-token-000000" },
      {
        "X-Supabase-Api-Version": "2024-01-01",
      },
    );
    expect(versioned.body).toEqual({
      code: "refresh_token_not_found",
      message: "Invalid Refresh Token: Refresh Token Not Found",
    });
    expect(versioned.headers.get("x-supabase-api-version")).toBe("2024-01-01");
  });
});
