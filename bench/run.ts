import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import autocannon from "autocannon";
import { startPgBouncer } from "../test/support/pgbouncer.js";
import { populate } from "../test/support/population.js";
import { adminList } from "./admin-list.js";
import { decay, mixed, rss, start } from "./extras.js";
import {
  args,
  CONNECTIONS,
  DURATION_S,
  EXTRAS,
  PASSWORD,
  PGBOUNCER,
  POOL,
  POPULATION,
  ROUNDS,
  SCENARIOS,
  SECRET,
} from "./options.js";
import {
  backendPids,
  benchDatabase,
  cpuMicros,
  log,
  logDir,
  type Measured,
  pinning,
  type Server,
  startServer,
  stop,
} from "./processes.js";
import { type Row, report, type Scenario, summary } from "./report.js";
import { compareGetUser, otlpSink, telemetryEnv, type Variant } from "./telemetry.js";

async function measure(pid: number, options: autocannon.Options, application?: string): Promise<Measured> {
  const backends = application ? backendPids(application) : [];
  if (process.env.BENCH_DEBUG) log(`backends of ${application}: ${backends.join(" ")}`);
  const dbCpu = () => backends.reduce((sum, p) => sum + (cpuMicros(p) || 0), 0);
  const cpuBefore = cpuMicros(pid);
  const dbBefore = dbCpu();
  const result = await autocannon({ duration: DURATION_S, connections: 16, ...options });
  const total = result.requests.total;
  return {
    rps: result.requests.average,
    p99: result.latency.p99,
    errors: result.non2xx + result.errors + result.timeouts,
    total,
    cpuUs: total > 0 ? (cpuMicros(pid) - cpuBefore) / total : Number.NaN,
    dbCpuUs: total > 0 && backends.length > 0 ? (dbCpu() - dbBefore) / total : Number.NaN,
  };
}

async function post(url: string, body: unknown): Promise<Record<string, string>> {
  const res = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  if (res.status !== 200) throw new Error(`${url}: ${res.status} ${await res.text()}`);
  return (await res.json()) as Record<string, string>;
}

const json = { "content-type": "application/json" };

/**
 * A refresh load: each in-flight request takes one live token of its own session and puts the
 * answer's token back, so every request is a real rotation. Tokens lost when a run stops mid-request
 * are replaced by `seed` before the next run.
 */
function refreshLoad(seed: () => Promise<string>) {
  const pool: string[] = [];
  return async (url: string, connections: number): Promise<autocannon.Options> => {
    const missing = connections - pool.length;
    // A seed that times out on a loaded machine is tried again, not the end of the run.
    const retried = async () => {
      for (let attempt = 1; ; attempt++) {
        try {
          return await seed();
        } catch (error) {
          if (attempt >= 5) throw error;
          await new Promise((resolve) => setTimeout(resolve, 200 * attempt));
        }
      }
    };
    const seeded = await Promise.all(Array.from({ length: Math.max(0, missing) }, retried));
    pool.push(...seeded);
    return {
      url,
      connections,
      requests: [
        {
          method: "POST",
          headers: json,
          setupRequest: (req) => ({ ...req, body: JSON.stringify({ refresh_token: pool.shift() }) }),
          onResponse: (status, body) => {
            if (status === 200) pool.push((JSON.parse(body) as { refresh_token: string }).refresh_token);
          },
        },
      ],
    };
  };
}

/** Sign-ups with addresses never used before. */
function signupLoad(prefix: string) {
  let n = 0;
  return (url: string, connections: number): autocannon.Options => ({
    url,
    connections,
    requests: [
      {
        method: "POST",
        headers: json,
        setupRequest: (req) => ({
          ...req,
          body: JSON.stringify({ email: `${prefix}-${Date.now()}-${++n}@example.com`, password: PASSWORD }),
        }),
      },
    ],
  });
}

// ---- main -----------------------------------------------------------------------------------------

async function main() {
  if (SCENARIOS.length === 0 && !args.has("telemetry") && EXTRAS.every((extra) => extra === "start")) {
    // Only the start times: the embedded database, no PostgreSQL, no baseline server.
    try {
      const extras = EXTRAS.length ? { start: await start() } : {};
      for (const [name, value] of Object.entries(extras)) console.log(`${name}: ${JSON.stringify(value)}`);
    } finally {
      rmSync(logDir, { recursive: true, force: true });
    }
    return;
  }
  const db = benchDatabase();
  const bouncer = PGBOUNCER ? await startPgBouncer(db.url, { poolSize: 20 }) : undefined;
  // What the servers connect to; the bench itself (population, CPU of the backends) goes direct.
  const serverDbUrl = bouncer?.url ?? db.url;
  const dataDir = mkdtempSync(join(tmpdir(), "authsvc-bench-"));
  const env: Record<string, string> = {
    AUTHSVC_API_HOST: "127.0.0.1",
    PORT: "0",
    // The default level: the request log is part of the cost. Also the line that gives the URL.
    AUTHSVC_LOG_LEVEL: "info",
    AUTHSVC_MAILER_AUTOCONFIRM: "true",
    AUTHSVC_DATA_DIR: dataDir,
    AUTHSVC_SITE_URL: "http://localhost:3000",
    AUTHSVC_API_EXTERNAL_URL: "http://localhost:9999",
    AUTHSVC_JWT_SECRET: SECRET,
    DATABASE_URL: serverDbUrl,
    ...(bouncer ? { AUTHSVC_DB_PREPARED_STATEMENTS: "false" } : {}),
    ...(POOL ? { AUTHSVC_DB_MAX_POOL_SIZE: POOL } : {}),
  };
  let server: Server | undefined;
  let bare: Server | undefined;
  const extra: Server[] = [];
  const rows: Row[] = [];
  const extras: Record<string, unknown> = {};
  try {
    server = await startServer(["apps/http/dist/main.js"], env);
    const ours = server;
    // After authsvc has migrated the database: the baselines use its tables.
    extras.population = await populate(db.url, {
      count: POPULATION,
      tokensPerSession: Number(args.get("tokens-per-session") ?? 10),
      log,
    });
    bare = await startServer(["--import", "tsx", "bench/bare-server.ts"], {
      DATABASE_URL: serverDbUrl,
      ...(bouncer ? { DB_PREPARED_STATEMENTS: "false" } : {}),
      JWT_SECRET: SECRET,
      ...(POOL ? { DB_MAX_POOL_SIZE: POOL } : {}),
    });
    const baseUrl = bare.url;
    const session = await post(`${ours.url}/signup`, { email: "bench@example.com", password: PASSWORD });
    const token = session.access_token as string;
    log(`servers up${pinning ? " (servers on core 0, load on core 1)" : ""}`);

    const oursRefresh = refreshLoad(
      async () =>
        (
          await post(`${ours.url}/token?grant_type=password`, {
            email: "bench@example.com",
            password: PASSWORD,
          })
        ).refresh_token as string,
    );
    const baseRefresh = refreshLoad(
      async () => (await post(`${baseUrl}/sessions`, { email: "bench@example.com" })).refresh_token as string,
    );
    const password = (url: string, connections: number): autocannon.Options => ({
      url,
      connections,
      method: "POST",
      headers: json,
      body: JSON.stringify({ email: "bench@example.com", password: PASSWORD }),
    });
    const scenarios: Record<string, Scenario> = {
      user: {
        name: "GET /user",
        baseline: "(b) jose verify + PK select",
        target: 0.6,
        ours: (connections) => ({
          url: `${ours.url}/user`,
          connections,
          headers: { authorization: `Bearer ${token}` },
        }),
        base: (connections) => ({
          url: `${baseUrl}/user`,
          connections,
          headers: { authorization: `Bearer ${token}` },
        }),
      },
      refresh: {
        name: "refresh grant",
        baseline: "(c) 3-statement rotation + sign",
        target: 1.0,
        ours: (connections) => oursRefresh(`${ours.url}/token?grant_type=refresh_token`, connections),
        base: (connections) => baseRefresh(`${baseUrl}/refresh`, connections),
      },
      password: {
        name: "password grant",
        baseline: "(d) argon2id verify + select + insert",
        target: 0.85,
        ours: (connections) => password(`${ours.url}/token?grant_type=password`, connections),
        base: (connections) => password(`${baseUrl}/password`, connections),
      },
      signup: {
        name: "sign-up",
        baseline: "(e) argon2id hash + inserts",
        target: 0.8,
        ours: (connections) => signupLoad("ours")(`${ours.url}/signup`, connections),
        base: (connections) => signupLoad("base")(`${baseUrl}/signup`, connections),
      },
    };
    const chosen = args.has("telemetry") && !args.has("scenarios") ? [] : SCENARIOS;

    // (a): the bare route, once per concurrency level, for scale.
    const bareRows: { connections: number; rps: number; p99: number }[] = [];
    for (const connections of chosen.length ? CONNECTIONS : []) {
      const m = await measure(bare.pid, { url: `${baseUrl}/bare`, connections });
      bareRows.push({ connections, rps: m.rps, p99: m.p99 });
    }
    for (const connections of CONNECTIONS) {
      for (const key of chosen) {
        const s = scenarios[key];
        if (!s) throw new Error(`unknown scenario ${key} (user, refresh, password, signup)`);
        const row: Row = {
          scenario: s.name,
          baseline: s.baseline,
          connections,
          target: s.target,
          ours: [],
          base: [],
        };
        // A short warm-up of each side first: pool connections opened, code compiled.
        await autocannon({ ...(await s.base(connections)), duration: 1 });
        await autocannon({ ...(await s.ours(connections)), duration: 1 });
        for (let round = 0; round < ROUNDS; round++) {
          // Alternate which of the pair goes first, so neither always follows the other.
          const pair = [
            async () =>
              row.base.push(await measure(bare?.pid ?? 0, await s.base(connections), "bench-baseline")),
            async () => row.ours.push(await measure(ours.pid, await s.ours(connections), "authsvc")),
          ];
          for (const run of round % 2 ? pair.reverse() : pair) await run();
          log(
            `${s.name} @${connections}, round ${round + 1}: ${row.ours.at(-1)?.rps.toFixed(0)} vs ${row.base.at(-1)?.rps.toFixed(0)} req/s`,
          );
        }
        rows.push(row);
      }
    }

    if (EXTRAS.includes("admin")) {
      extras.admin = await adminList({
        url: ours.url,
        databaseUrl: db.url,
        secret: SECRET,
        durationS: DURATION_S,
      });
    }
    if (EXTRAS.includes("decay")) extras.decay = await decay(ours, token);
    if (EXTRAS.includes("mixed")) extras.mixed = await mixed(ours, token);
    if (EXTRAS.includes("rss")) {
      // A server of its own: the peak is this scenario's, not the residue of the runs before.
      const fresh = await startServer(["apps/http/dist/main.js"], env);
      extra.push(fresh);
      const t = (
        await post(`${fresh.url}/token?grant_type=password`, {
          email: "bench@example.com",
          password: PASSWORD,
        })
      ).access_token as string;
      extras.rss = await rss(fresh, t);
    }
    if (EXTRAS.includes("start")) extras.start = await start();

    if (args.has("telemetry")) {
      const sink = await otlpSink();
      const on = await startServer(["apps/http/dist/main.js"], { ...env, ...telemetryEnv(sink.url) });
      extra.push(on);
      const signUp = async (url: string, name: string) =>
        (await post(`${url}/signup`, { email: `bench-${name}@example.com`, password: PASSWORD }))
          .access_token as string;
      const variants: Variant[] = [
        { name: "telemetry off", url: ours.url, token, pid: ours.pid },
        { name: "traces + metrics on (OTLP)", url: on.url, token: await signUp(on.url, "on"), pid: on.pid },
      ];
      const baselineMain = process.env.BENCH_BASELINE_MAIN;
      if (baselineMain) {
        const baseline = await startServer([baselineMain], env);
        extra.push(baseline);
        variants.push({
          name: "baseline build, off",
          url: baseline.url,
          token: await signUp(baseline.url, "base"),
          pid: baseline.pid,
        });
      }
      await compareGetUser(variants, ROUNDS, (options) => measure(0, { duration: DURATION_S, ...options }));
      sink.close();
    }

    report(db.url, bareRows, rows.map(summary), extras);
  } finally {
    for (const s of extra) await stop(s);
    await stop(server);
    await stop(bare);
    await bouncer?.stop();
    db.drop();
    rmSync(dataDir, { recursive: true, force: true });
    rmSync(logDir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
