import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type FreshNamespace, migratedNamespace } from "@authsvc/adapters/testing";
import { productionServerEnv, TEST_JWT_SECRET } from "@authsvc/http/testing";
import { jwtVerify } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startServer } from "./support/server-process.js";
import { runOnTerminal } from "./support/terminal.js";

/**
 * The log as a person sees it on a terminal (pino-pretty, and in embedded mode a few plain lines
 * with the URL, the data folder and the two keys) and as a collector reads it from a pipe (JSON).
 */
const dirs: string[] = [];
const tempDir = () => {
  const dir = mkdtempSync(join(tmpdir(), "authsvc-logfmt-"));
  dirs.push(dir);
  return dir;
};
let ns: FreshNamespace;

beforeAll(async () => {
  ns = await migratedNamespace();
}, 60_000);

afterAll(async () => {
  await ns?.drop();
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

const LEVEL_LINE = /^(INFO|WARN|ERROR|DEBUG|FATAL): \d\d:\d\d:\d\d\.\d{3} /;

describe("on a terminal", () => {
  it("embedded mode: pretty lines, then the URL, the data folder and two working keys in plain lines", async () => {
    const cwd = tempDir();
    const run = runOnTerminal({ PORT: "0" }, cwd);
    try {
      await run.waitFor(/authsvc listening on http:\/\/\S+\n/);
      const text = run.text();
      expect(text.split("\n").filter((line) => line.startsWith("{"))).toEqual([]);
      expect(text).toMatch(/^WARN: \d\d:\d\d:\d\d\.\d{3} DEVELOPMENT MODE/);
      expect(text).toMatch(/^INFO: \d\d:\d\d:\d\d\.\d{3} migrations up to date\n {4}applied: \[\]/m);

      const url = /^ {2}URL +(http:\/\/127\.0\.0\.1:\d+) /m.exec(text)?.[1];
      expect(url).toBeDefined();
      expect(text).toContain(`  data              ${join(cwd, ".authsvc")} `);
      const anon = /^ {2}anon key +(\S+)$/m.exec(text)?.[1] as string;
      const service = /^ {2}service_role key +(\S+)$/m.exec(text)?.[1] as string;
      const secret = new TextEncoder().encode(
        readFileSync(join(cwd, ".authsvc", "jwt-secret"), "utf8").trim(),
      );
      expect((await jwtVerify(anon, secret)).payload.role).toBe("anon");
      expect((await jwtVerify(service, secret)).payload.role).toBe("service_role");
      // The URL works, and the service_role key reaches /admin.
      const admin = await fetch(`${url}/admin/users`, {
        headers: { apikey: service, authorization: `Bearer ${service}` },
      });
      expect(admin.status).toBe(200);
      // The announcement comes before the line that says where it listens.
      expect(text.indexOf("service_role key")).toBeLessThan(text.indexOf("authsvc listening on"));
      // The development secret itself is never shown.
      expect(text).not.toContain(readFileSync(join(cwd, ".authsvc", "jwt-secret"), "utf8").trim());
    } finally {
      await run.stop();
    }
  }, 90_000);

  it("AUTHSVC_LOG_FORMAT=json keeps JSON lines even there", async () => {
    const run = runOnTerminal(productionServerEnv(ns, { AUTHSVC_LOG_FORMAT: "json" }), tempDir());
    try {
      await run.waitFor(/"msg":"authsvc listening on/);
      const lines = run.text().trim().split("\n");
      expect(lines.length).toBeGreaterThan(2);
      for (const line of lines) expect(JSON.parse(line)).toMatchObject({ level: expect.any(String) });
    } finally {
      await run.stop();
    }
  }, 90_000);

  it("a production server: pretty lines only, and no secret of its configuration", async () => {
    const run = runOnTerminal(
      productionServerEnv(ns, {
        AUTHSVC_SMTP_HOST: "smtp.invalid",
        AUTHSVC_SMTP_ADMIN_EMAIL: "auth@example.com",
        AUTHSVC_SMTP_PASS: "smtp-pass-not-shown",
      }),
      tempDir(),
    );
    try {
      await run.waitFor(/authsvc listening on http:\/\/\S+\n/);
      const text = run.text();
      expect(text).toMatch(/^INFO: \d\d:\d\d:\d\d\.\d{3} authsvc listening on/m);
      // Each line is a level line or a field of the one above.
      const stray = text
        .split("\n")
        .filter((line) => line !== "" && !LEVEL_LINE.test(line) && !line.startsWith("    "));
      expect(stray).toEqual([]);
      for (const secret of ["smtp-pass-not-shown", TEST_JWT_SECRET, "postgres://postgres:"])
        expect(text).not.toContain(secret);
    } finally {
      await run.stop();
    }
  }, 90_000);
});

describe("on a pipe", () => {
  it("JSON lines; embedded mode puts the URL, data folder and keys in one line before 'listening'", async () => {
    const cwd = tempDir();
    const server = await startServer({ PORT: "0" }, { cwd });
    try {
      // The server is taken as started at its URL's line; the 'listening' line may follow a moment later.
      const listening = (l: Record<string, unknown>) => String(l.msg).startsWith("authsvc listening on");
      let lines = server.lines();
      for (const began = Date.now(); !lines.some(listening) && Date.now() - began < 10_000; ) {
        await new Promise((resolve) => setTimeout(resolve, 50));
        lines = server.lines();
      }
      const keys = lines.findIndex((l) => typeof l.anon_key === "string");
      expect(lines[keys]).toMatchObject({
        level: "info",
        url: server.url,
        data_dir: join(cwd, ".authsvc"),
        service_role_key: expect.stringMatching(/^eyJ/),
      });
      expect(keys).toBe(lines.findIndex(listening) - 1);
    } finally {
      await server.stop();
    }
  }, 90_000);

  it("AUTHSVC_LOG_FORMAT=pretty prints for a person even there, without colours", async () => {
    const run = runOnTerminal(productionServerEnv(ns, { AUTHSVC_LOG_FORMAT: "pretty" }), tempDir(), false);
    try {
      await run.waitFor(/authsvc listening on http:\/\/\S+\n/);
      const text = run.text();
      expect(text).toMatch(/^INFO: \d\d:\d\d:\d\d\.\d{3} migrations up to date$/m);
      expect(text.split("\n").filter((line) => line.startsWith("{"))).toEqual([]);
    } finally {
      await run.stop();
    }
  }, 90_000);
});
