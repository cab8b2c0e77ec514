/**
 * `npm run bench`: requests/s and p99 latency of authsvc on one server process for GET /user, the
 * refresh grant, the password grant and sign-up, each next to a bare Hono route measured just before
 * it in the same run (these machines are noisy: ratios are what compare across runs).
 *
 * Database: BENCH_DATABASE_URL, else a fresh database on the PostgreSQL at 127.0.0.1:5432 when one
 * answers, else the embedded PGlite. Loopback only; every run is bounded in time.
 */
import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import autocannon from "autocannon";
import { compareGetUser, otlpSink, telemetryEnv, type Variant } from "./telemetry.js";

const DURATION_S = Number(process.env.BENCH_DURATION ?? 8);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 16);
/** Rounds of the telemetry off/on comparison of GET /user; 0 skips it. */
const TELEMETRY_ROUNDS = Number(process.env.BENCH_TELEMETRY_ROUNDS ?? 3);
/** BENCH_TELEMETRY_ONLY=1 runs only the telemetry comparison. */
const TELEMETRY_ONLY = process.env.BENCH_TELEMETRY_ONLY === "1";
const root = fileURLToPath(new URL("..", import.meta.url));

function spawnJsonLine(
  command: string,
  args: string[],
  env: Record<string, string>,
): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(command, args, {
    cwd: root,
    env: { PATH: process.env.PATH ?? "", ...env },
    stdio: ["ignore", "pipe", "inherit"],
  });
  return new Promise((resolve, reject) => {
    let out = "";
    child.stdout?.on("data", (chunk: Buffer) => {
      out += chunk.toString();
      for (const line of out.split("\n")) {
        if (!line.startsWith("{")) continue;
        const parsed = JSON.parse(line) as { url?: string };
        if (parsed.url) return resolve({ child, url: parsed.url.replace("0.0.0.0", "127.0.0.1") });
      }
    });
    child.once("exit", (code) => reject(new Error(`${args.join(" ")} exited with ${code}`)));
  });
}

function benchDatabase(): { url?: string; drop(): void } {
  if (process.env.BENCH_DATABASE_URL) return { url: process.env.BENCH_DATABASE_URL, drop() {} };
  const name = `authsvc_bench_${Date.now()}`;
  try {
    execFileSync(
      "psql",
      ["-q", "-h", "127.0.0.1", "-U", "postgres", "-d", "postgres", "-c", `create database ${name}`],
      { stdio: "ignore" },
    );
  } catch {
    return { drop() {} };
  }
  return {
    url: `postgres://postgres@127.0.0.1:5432/${name}`,
    drop: () =>
      execFileSync(
        "psql",
        [
          "-q",
          "-h",
          "127.0.0.1",
          "-U",
          "postgres",
          "-d",
          "postgres",
          "-c",
          `drop database ${name} with (force)`,
        ],
        { stdio: "ignore" },
      ),
  };
}

interface Measured {
  rps: number;
  p99: number;
  errors: number;
  /** Requests answered in the run. */
  total: number;
}

async function measure(options: autocannon.Options): Promise<Measured> {
  const result = await autocannon({ duration: DURATION_S, connections: CONNECTIONS, ...options });
  const non2xx = result.non2xx + result.errors + result.timeouts;
  return {
    rps: result.requests.average,
    p99: result.latency.p99,
    errors: non2xx,
    total: result.requests.total,
  };
}

async function post(url: string, body: unknown, headers: Record<string, string> = {}) {
  const res = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: JSON.stringify(body),
  });
  if (res.status !== 200) throw new Error(`${url}: ${res.status} ${await res.text()}`);
  return (await res.json()) as { access_token: string; refresh_token: string };
}

/** A user of its own on `url` (servers may share the database), and its access token. */
async function signUp(url: string, name: string): Promise<string> {
  const session = await post(`${url}/signup`, {
    email: `bench-${name}@example.com`,
    password: "bench-password",
  });
  return session.access_token;
}

async function main() {
  const db = benchDatabase();
  const dataDir = mkdtempSync(join(tmpdir(), "authsvc-bench-"));
  const env: Record<string, string> = {
    AUTHSVC_API_HOST: "127.0.0.1",
    PORT: "0",
    AUTHSVC_LOG_LEVEL: "warn",
    AUTHSVC_MAILER_AUTOCONFIRM: "true",
    AUTHSVC_DATA_DIR: dataDir,
    AUTHSVC_SITE_URL: "http://localhost:3000",
    AUTHSVC_API_EXTERNAL_URL: "http://localhost:9999",
    AUTHSVC_JWT_SECRET: "a-benchmark-secret-of-at-least-32-characters",
    ...(db.url ? { DATABASE_URL: db.url } : {}),
  };
  const server = await spawnJsonLine(process.execPath, ["apps/http/dist/main.js"], {
    ...env,
    AUTHSVC_LOG_LEVEL: "info",
  });
  const bare = await spawnJsonLine(process.execPath, ["--import", "tsx", "bench/bare-server.ts"], {});
  const rows: { scenario: string; ours: Measured; base: Measured }[] = [];
  const extra: ChildProcess[] = [];
  try {
    const session = await post(`${server.url}/signup`, {
      email: "bench@example.com",
      password: "bench-password",
    });
    const scenarios: { name: string; options: () => Promise<autocannon.Options> }[] = [
      {
        name: "GET /user",
        options: async () => ({
          url: `${server.url}/user`,
          headers: { authorization: `Bearer ${session.access_token}` },
        }),
      },
      {
        name: "POST /token refresh_token",
        options: async () => {
          // Each in-flight request holds one live token and puts its child back: real rotations.
          const pool: string[] = [];
          for (let i = 0; i < CONNECTIONS; i++) {
            pool.push(
              (
                await post(`${server.url}/token?grant_type=password`, {
                  email: "bench@example.com",
                  password: "bench-password",
                })
              ).refresh_token,
            );
          }
          return {
            url: `${server.url}/token?grant_type=refresh_token`,
            requests: [
              {
                method: "POST",
                headers: { "content-type": "application/json" },
                setupRequest: (req) => ({ ...req, body: JSON.stringify({ refresh_token: pool.shift() }) }),
                onResponse: (status, body) => {
                  if (status === 200)
                    pool.push((JSON.parse(body) as { refresh_token: string }).refresh_token);
                },
              },
            ],
          };
        },
      },
      {
        name: "POST /token password",
        options: async () => ({
          url: `${server.url}/token?grant_type=password`,
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ email: "bench@example.com", password: "bench-password" }),
        }),
      },
      {
        name: "POST /signup",
        options: async () => {
          let n = 0;
          const run = Date.now();
          return {
            url: `${server.url}/signup`,
            requests: [
              {
                method: "POST",
                headers: { "content-type": "application/json" },
                setupRequest: (req) => ({
                  ...req,
                  body: JSON.stringify({ email: `u${run}-${++n}@example.com`, password: "bench-password" }),
                }),
              },
            ],
          };
        },
      },
    ];
    for (const scenario of TELEMETRY_ONLY ? [] : scenarios) {
      const base = await measure({ url: `${bare.url}/bare` });
      const ours = await measure(await scenario.options());
      rows.push({ scenario: scenario.name, ours, base });
      process.stderr.write(`measured ${scenario.name}\n`);
    }
    if (TELEMETRY_ROUNDS > 0) {
      // The listening line that gives a server's URL is logged at info.
      const info = { AUTHSVC_LOG_LEVEL: "info" };
      const sink = await otlpSink();
      const on = await spawnJsonLine(process.execPath, ["apps/http/dist/main.js"], {
        ...env,
        ...info,
        ...telemetryEnv(sink.url),
      });
      extra.push(on.child);
      const variants: Variant[] = [
        { name: "telemetry off", url: server.url, token: session.access_token, pid: server.child.pid },
        {
          name: "traces + metrics on (OTLP)",
          url: on.url,
          token: await signUp(on.url, "on"),
          pid: on.child.pid,
        },
      ];
      const baselineMain = process.env.BENCH_BASELINE_MAIN;
      if (baselineMain) {
        const baseline = await spawnJsonLine(process.execPath, [baselineMain], { ...env, ...info });
        extra.push(baseline.child);
        variants.push({
          name: "baseline build, off",
          url: baseline.url,
          token: await signUp(baseline.url, "base"),
          pid: baseline.child.pid,
        });
      }
      await compareGetUser(variants, TELEMETRY_ROUNDS, measure);
      sink.close();
    }
  } finally {
    for (const child of extra) child.kill("SIGTERM");
    server.child.kill("SIGTERM");
    bare.child.kill("SIGTERM");
    await new Promise((resolve) => server.child.once("exit", resolve));
    db.drop();
    rmSync(dataDir, { recursive: true, force: true });
  }
  if (rows.length === 0) return;
  const fmt = (n: number, digits = 0) => n.toFixed(digits).padStart(9);
  console.log(
    `\nauthsvc benchmark: ${DURATION_S}s per run, ${CONNECTIONS} connections, database ${db.url ? "PostgreSQL" : "embedded PGlite"}\n`,
  );
  console.log(
    "| scenario                  |   req/s |  p99 ms | errors | bare req/s | bare p99 | ratio (req/s) |",
  );
  console.log(
    "| ------------------------- | ------- | ------- | ------ | ---------- | -------- | ------------- |",
  );
  for (const { scenario, ours, base } of rows) {
    console.log(
      `| ${scenario.padEnd(25)} | ${fmt(ours.rps)} | ${fmt(ours.p99)} | ${String(ours.errors).padStart(6)} | ${fmt(base.rps)}  | ${fmt(base.p99)} | ${(ours.rps / base.rps).toFixed(3).padStart(13)} |`,
    );
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
