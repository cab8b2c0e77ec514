import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import autocannon from "autocannon";
import { type PgBouncer, startPgBouncer } from "../test/support/pgbouncer.js";
import { populate } from "../test/support/population.js";
import { adminList } from "./admin-list.js";
import { capacityExtra } from "./capacity-print.js";
import { decay, mixed, rss, start } from "./extras.js";
import { idleMemory, tail } from "./memory-tail.js";
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
  unpin,
} from "./processes.js";
import { POOLED, pooledAgainstDirect, type Row, report, summary } from "./report.js";
import { post, scenariosOf } from "./scenarios.js";
import { compareGetUser, otlpSink, telemetryEnv, type Variant } from "./telemetry.js";

async function measure(
  pid: number,
  options: autocannon.Options,
  application?: string,
  pooler?: PgBouncer,
): Promise<Measured> {
  // Through PgBouncer, the pooler's CPU is part of the database's share.
  const backends = [...(application ? backendPids(application) : []), ...(pooler ? [pooler.pid] : [])];
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

/** A server pair of the run: the direct one, and with --pgbouncer the one through the poolers. */
interface MeasuredPair {
  /** Appended to the scenarios' names. */
  label: string;
  ours: Server;
  base: Server;
  /** The application names their database connections carry. */
  oursApp: string;
  baseApp: string;
  pooler?: { ours: PgBouncer; base: PgBouncer };
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
  // With --pgbouncer, a second pair of servers reaches the database through PgBouncer, one for each
  // server (so that each server connection, and its CPU time, serves one of them), measured in the
  // same rounds as the direct pair: on a shared machine only ratios taken in the same minute compare.
  const poolerSize = Number(POOL ?? 10);
  const bouncer = PGBOUNCER ? await startPgBouncer(db.url, { poolSize: poolerSize }) : undefined;
  const baseBouncer = PGBOUNCER ? await startPgBouncer(db.url, { poolSize: poolerSize }) : undefined;
  for (const pooler of [bouncer, baseBouncer]) if (pooler) unpin(pooler.pid);
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
    // The OAuth client scenarios (oauth-refresh, dpop-refresh) register a client and run the code flow.
    AUTHSVC_OAUTH_SERVER_ENABLED: "true",
    AUTHSVC_OAUTH_SERVER_ALLOW_DYNAMIC_REGISTRATION: "true",
    AUTHSVC_OAUTH_SERVER_AUTHORIZATION_PATH: "/consent",
    AUTHSVC_RATE_LIMIT_OAUTH_AUTHORIZE: "0",
    DATABASE_URL: db.url,
    ...(POOL ? { AUTHSVC_DB_MAX_POOL_SIZE: POOL } : {}),
  };
  /** The pooler's address, with the name its backends carry (the bench reads their CPU by it). */
  const through = (pooler: PgBouncer, application: string) => {
    const url = new URL(pooler.url);
    url.searchParams.set("application_name", application);
    return url.href;
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
    const baseEnv = { JWT_SECRET: SECRET, ...(POOL ? { DB_MAX_POOL_SIZE: POOL } : {}) };
    bare = await startServer(["--import", "tsx", "bench/bare-server.ts"], {
      ...baseEnv,
      DATABASE_URL: db.url,
    });
    // A database kept from an earlier run (`--population=0`) already has the bench's user: signed in.
    const credentials = { email: "bench@example.com", password: PASSWORD };
    const session = await post(`${ours.url}/signup`, credentials).catch((error: Error) =>
      /user_already_exists/.test(error.message)
        ? post(`${ours.url}/token?grant_type=password`, credentials)
        : Promise.reject(error),
    );
    const token = session.access_token as string;
    const pairs: MeasuredPair[] = [
      { label: "", ours, base: bare, oursApp: "authsvc", baseApp: "bench-baseline" },
    ];
    if (bouncer && baseBouncer) {
      // Named statements only where PgBouncer keeps them across transactions (1.21+).
      const prepared = String(bouncer.preparedStatements);
      const pooledOurs = await startServer(["apps/http/dist/main.js"], {
        ...env,
        DATABASE_URL: through(bouncer, "authsvc-pooled"),
        AUTHSVC_DB_PREPARED_STATEMENTS: prepared,
      });
      const pooledBase = await startServer(["--import", "tsx", "bench/bare-server.ts"], {
        ...baseEnv,
        DATABASE_URL: through(baseBouncer, "bench-baseline-pooled"),
        DB_PREPARED_STATEMENTS: prepared,
      });
      extra.push(pooledOurs, pooledBase);
      pairs.push({
        label: POOLED,
        ours: pooledOurs,
        base: pooledBase,
        pooler: { ours: bouncer, base: baseBouncer },
        oursApp: "authsvc-pooled",
        baseApp: "bench-baseline-pooled",
      });
    }
    log(`servers up${pinning ? " (servers on core 0, load on core 1)" : ""}`);
    const loads = pairs.map((p) =>
      scenariosOf({ label: p.label, ours: p.ours.url, base: p.base.url, token }),
    );
    const chosen = args.has("telemetry") && !args.has("scenarios") ? [] : SCENARIOS;

    // (a): the bare route, once per concurrency level, for scale.
    const bareRows: { connections: number; rps: number; p99: number }[] = [];
    for (const connections of chosen.length ? CONNECTIONS : []) {
      const m = await measure(bare.pid, { url: `${bare.url}/bare`, connections });
      bareRows.push({ connections, rps: m.rps, p99: m.p99 });
    }
    for (const connections of CONNECTIONS) {
      for (const key of chosen) {
        const runs: (() => Promise<unknown>)[] = [];
        const pairRows: Row[] = [];
        for (const [i, pair] of pairs.entries()) {
          const s = loads[i]?.[key];
          if (!s) throw new Error(`unknown scenario ${key} (user, refresh, password, signup)`);
          const row: Row = {
            scenario: s.name + pair.label,
            baseline: s.baseline,
            connections,
            target: s.target,
            ours: [],
            base: [],
          };
          pairRows.push(row);
          // A short warm-up of each side first: pool connections opened, code compiled.
          await autocannon({ ...(await s.base(connections)), duration: 1 });
          await autocannon({ ...(await s.ours(connections)), duration: 1 });
          const { pooler } = pair;
          runs.push(
            async () =>
              row.base.push(
                await measure(pair.base.pid, await s.base(connections), pair.baseApp, pooler?.base),
              ),
            async () =>
              row.ours.push(
                await measure(pair.ours.pid, await s.ours(connections), pair.oursApp, pooler?.ours),
              ),
          );
        }
        for (let round = 0; round < ROUNDS; round++) {
          // Alternate the order of the runs, so that none always follows another.
          for (const run of round % 2 ? [...runs].reverse() : runs) await run();
          for (const row of pairRows) {
            log(
              `${row.scenario} @${connections}, round ${round + 1}: ${row.ours.at(-1)?.rps.toFixed(0)} vs ${row.base.at(-1)?.rps.toFixed(0)} req/s`,
            );
          }
        }
        rows.push(...pairRows);
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
    if (EXTRAS.includes("capacity")) {
      const context = { server: ours, databaseUrl: db.url, secret: SECRET, token, email: credentials.email };
      extras.capacity = await capacityExtra(context);
    }
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
      extras.rss = { ...(await rss(fresh, t)), idle: await idleMemory(env) };
    }
    if (EXTRAS.includes("tail")) extras.tail = await tail(env, { ...baseEnv, DATABASE_URL: db.url }, token);
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

    report(db.url, bareRows, rows.map(summary), extras, pooledAgainstDirect(rows));
  } finally {
    for (const s of extra) await stop(s);
    await stop(server);
    await stop(bare);
    await bouncer?.stop();
    await baseBouncer?.stop();
    db.drop();
    rmSync(dataDir, { recursive: true, force: true });
    rmSync(logDir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
