import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type FreshNamespace, migratedNamespace } from "@authsvc/adapters/testing";
import { MODULES, openApiDocument } from "@authsvc/http";
import { productionServerEnv } from "@authsvc/http/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Answer, AnswerChecker } from "./support/openapi-answers.js";
import { type ServerProcess, startServer } from "./support/server-process.js";

/**
 * The check every e2e answer goes through (support/openapi-fetch-check.ts) passes what the server
 * really answers and refuses what the description does not allow: an undeclared status, a body with a
 * field it does not list, another content type, a route it does not have. The description served at
 * GET /openapi.json is the one the check uses.
 */
let server: ServerProcess;
let ns: FreshNamespace;
const cwd = mkdtempSync(join(tmpdir(), "authsvc-openapi-"));
const checker = new AnswerChecker(openApiDocument(MODULES) as unknown as Record<string, unknown>);

beforeAll(async () => {
  ns = await migratedNamespace();
  server = await startServer(productionServerEnv(ns), { cwd });
}, 60_000);

afterAll(async () => {
  await server?.stop();
  await ns?.drop();
  rmSync(cwd, { recursive: true, force: true });
});

async function answerOf(path: string, init: RequestInit = {}): Promise<Answer> {
  const res = await fetch(`${server.url}${path}`, init);
  const routed = path.replace(/^\/auth\/v1/, "").split("?")[0] ?? path;
  return {
    method: init.method ?? "GET",
    path: routed,
    status: res.status,
    headers: res.headers,
    body: await res.text(),
  };
}

const withHeader = (answer: Answer, name: string, value: string): Answer => {
  const headers = new Headers(answer.headers);
  headers.set(name, value);
  return { ...answer, headers };
};

describe("the check of answers against the OpenAPI description", () => {
  it("passes real answers: a body, an error in both shapes, a 404 for an unknown path, a 405", async () => {
    expect(checker.check(await answerOf("/health"))).toBeUndefined();
    expect(checker.check(await answerOf("/auth/v1/settings"))).toBeUndefined();
    const bad = { method: "POST", body: "{nope", headers: { "content-type": "application/json" } };
    const legacy = await answerOf("/signup", bad);
    expect(legacy.status).toBe(400);
    expect(checker.check(legacy)).toBeUndefined();
    const dated = await answerOf("/signup", {
      ...bad,
      headers: { ...bad.headers, "x-supabase-api-version": "2024-01-01" },
    });
    expect(JSON.parse(dated.body)).toMatchObject({ code: "bad_json" });
    expect(checker.check(dated)).toBeUndefined();
    const unknown = await answerOf("/no/such/route");
    expect(unknown.status).toBe(404);
    expect(checker.check(unknown)).toBeUndefined();
    const wrongMethod = await answerOf("/settings", { method: "DELETE" });
    expect(wrongMethod.status).toBe(405);
    expect(checker.check(wrongMethod)).toBeUndefined();
  });

  it("refuses a status the operation does not declare", async () => {
    const health = await answerOf("/health");
    expect(checker.check({ ...health, status: 201 })).toMatch(/status 201 is not declared for GET \/health/);
  });

  it("refuses a body with a field the description does not list, or without a required one", async () => {
    const health = await answerOf("/health");
    const extra = JSON.stringify({ ...JSON.parse(health.body), uptime: 3 });
    expect(checker.check({ ...health, body: extra })).toMatch(/does not match the description/);
    const { version: _, ...missing } = JSON.parse(health.body) as Record<string, unknown>;
    expect(checker.check({ ...health, body: JSON.stringify(missing) })).toMatch(/does not match/);
  });

  it("refuses an error code the catalogue does not give that status", async () => {
    const legacy = await answerOf("/signup", { method: "POST", body: "{nope" });
    const moved = JSON.stringify({ ...JSON.parse(legacy.body), error_code: "weak_password" });
    expect(checker.check({ ...legacy, body: moved })).toMatch(/does not match/);
  });

  it("refuses another content type, and a route the description does not have", async () => {
    const health = await answerOf("/health");
    expect(checker.check(withHeader(health, "content-type", "text/plain"))).toMatch(
      /content type "text\/plain"/,
    );
    expect(checker.check({ ...health, path: "/healthz" })).toMatch(/not in the description/);
  });

  it("serves at GET /openapi.json the description the check uses", async () => {
    const res = await fetch(`${server.url}/auth/v1/openapi.json`);
    const served = (await res.json()) as { paths: object; servers: unknown };
    expect(served.servers).toEqual([{ url: "/auth/v1" }]);
    expect(served.paths).toEqual(JSON.parse(JSON.stringify(openApiDocument(MODULES).paths)));
  });
});
