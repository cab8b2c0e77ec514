/**
 * `npm run soak -- --minutes=30`: one authsvc process under a steady mixed load — GET /user 70%,
 * refresh 20%, password sign-in 5%, sign-up 5% — reporting per minute the answered requests a second,
 * the p99 latency, the errors, the server's RSS and the row count of every table of its schema, then
 * the last five minutes against the first five (targets: req/s and p99 within 10%, RSS flat, every
 * table levelled off). The server runs with its defaults (log level info, the cleanup on, a pass every
 * 10 s) except for lifetimes shortened so that the run reaches within its first minutes the steady
 * state a day of defaults would (RETENTION below): sessions end 2 min after sign-in and are removed a
 * minute later, with their tokens; revoked refresh tokens and audit entries are removed after a
 * minute (the shortest retentions allowed). Until then nothing is stale and the cleanup has no work,
 * so the first minutes would otherwise be faster than any steady state. Sign-ups add users,
 * identities and snapshots for as long as the load runs: those tables grow by construction.
 *
 * Options: --minutes=30, --connections=32 (requests in flight), --population=10000 (other users, as
 * `npm run bench`), --json (also bench/results/soak-<time>.json), --server-log=FILE (the server's
 * log). Database: BENCH_DATABASE_URL, else a fresh database on the PostgreSQL at 127.0.0.1:5432
 * (dropped at the end). With that server's autovacuum off, the soak vacuums its tables every minute
 * in its place (the `vacuum s` column).
 */
import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { createWriteStream, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import postgres from "postgres";
import { populate } from "../test/support/population.js";
import { cpuMicros, rssMb } from "./proc.js";

const root = fileURLToPath(new URL("..", import.meta.url));
const args = new Map(
  process.argv.slice(2).map((a) => {
    const [k = "", v = "true"] = a.replace(/^--/, "").split("=");
    return [k, v] as const;
  }),
);
const MINUTES = Number(args.get("minutes") ?? 30);
const CONNECTIONS = Number(args.get("connections") ?? 32);
const POPULATION = Number(args.get("population") ?? 10_000);
const PASSWORD = "soak-password";
const SECRET = "a-benchmark-secret-of-at-least-32-characters";
const log = (line: string) => process.stderr.write(`${line}\n`);
/** The lifetimes the soak shortens (defaults: no timebox, a day, a day, forever). */
const RETENTION = {
  AUTHSVC_SESSIONS_TIMEBOX: "2m",
  AUTHSVC_CLEANUP_ENDED_SESSION_RETENTION: "1m",
  AUTHSVC_CLEANUP_REVOKED_TOKEN_RETENTION: "1m",
  AUTHSVC_AUDIT_LOG_RETENTION: "1m",
};

function database(): { url: string; drop(): void } {
  if (process.env.BENCH_DATABASE_URL) return { url: process.env.BENCH_DATABASE_URL, drop() {} };
  const name = `authsvc_soak_${Date.now()}`;
  const psql = (command: string) =>
    execFileSync("psql", ["-q", "-h", "127.0.0.1", "-U", "postgres", "-d", "postgres", "-c", command]);
  psql(`create database ${name}`);
  return {
    url: `postgres://postgres@127.0.0.1:5432/${name}`,
    drop: () => psql(`drop database ${name} with (force)`),
  };
}

async function startServer(env: Record<string, string>): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(process.execPath, ["apps/http/dist/main.js"], {
    cwd: root,
    env: { PATH: process.env.PATH ?? "", ...env },
    stdio: ["ignore", "pipe", "inherit"],
  });
  return new Promise((resolve, reject) => {
    let buffer = "";
    const onData = (chunk: Buffer) => {
      buffer += chunk.toString();
      const url = /"url":"([^"]+)"/.exec(buffer)?.[1];
      if (url) {
        // From here on the log is drained so the server never blocks on the pipe: into --server-log's
        // file when given (the cleanup's "cleanup pass" lines say what each pass removed and whether
        // it finished), else nowhere.
        child.stdout?.off("data", onData);
        const serverLog = args.get("server-log");
        if (serverLog) {
          // The start-up lines read so far first, then the rest as it comes.
          const file = createWriteStream(serverLog);
          file.write(buffer);
          child.stdout?.pipe(file);
        } else child.stdout?.resume();
        resolve({ child, url: url.replace("0.0.0.0", "127.0.0.1") });
      }
    };
    child.stdout?.on("data", onData);
    child.once("exit", (code) => reject(new Error(`server exited with ${code}`)));
  });
}

async function post(url: string, body: unknown) {
  const res = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as Record<string, string> };
}

interface Minute {
  minute: number;
  rps: number;
  p99: number;
  errors: number;
  /** Refreshes answered `session_expired`: the session's timebox passed (expected, not an error). */
  expired: number;
  rssMb: number;
  /** The server's CPU time per answered request (µs): steadier than req/s on a shared machine. */
  cpuUs: number;
  /** CPU time of the server's database backends (its pool's and its cleanup's) per answered request (µs). */
  dbCpuUs: number;
  /** Seconds the soak's own vacuum of its tables took (NaN: the server's autovacuum is on). */
  vacuumS: number;
  rows: Record<string, number>;
}

async function main() {
  const db = database();
  const dataDir = mkdtempSync(join(tmpdir(), "authsvc-soak-"));
  const server = await startServer({
    AUTHSVC_API_HOST: "127.0.0.1",
    PORT: "0",
    AUTHSVC_LOG_LEVEL: "info",
    AUTHSVC_MAILER_AUTOCONFIRM: "true",
    AUTHSVC_DATA_DIR: dataDir,
    AUTHSVC_SITE_URL: "http://localhost:3000",
    AUTHSVC_API_EXTERNAL_URL: "http://localhost:9999",
    AUTHSVC_JWT_SECRET: SECRET,
    // One client address sends everything: the per-IP limits would measure themselves.
    AUTHSVC_RATE_LIMIT_TOKEN_REFRESH: "1000000000",
    ...RETENTION,
    DATABASE_URL: db.url,
  });
  const sql = postgres(db.url, { max: 1, onnotice: () => {} });
  try {
    await populate(db.url, { count: POPULATION, log });
    const first = await post(`${server.url}/signup`, { email: "soak@example.com", password: PASSWORD });
    if (first.status !== 200) throw new Error(`sign-up: ${first.status} ${JSON.stringify(first.body)}`);
    // Renewed by every sign-in: the session of an older one ends with the timebox.
    let accessToken = first.body.access_token as string;
    const tokens: string[] = [];
    let signups = 0;
    let expired = 0;
    const operations: [number, () => Promise<boolean>][] = [
      [
        0.7,
        async () => {
          const res = await fetch(`${server.url}/user`, {
            headers: { authorization: `Bearer ${accessToken}` },
          });
          await res.arrayBuffer();
          return res.status === 200;
        },
      ],
      [
        0.2,
        async () => {
          const token = tokens.shift();
          if (!token) return signIn();
          const res = await post(`${server.url}/token?grant_type=refresh_token`, { refresh_token: token });
          if (res.status === 200) tokens.push(res.body.refresh_token as string);
          if (res.body.error_code === "session_expired") {
            expired++;
            return true;
          }
          return res.status === 200;
        },
      ],
      [0.05, () => signIn()],
      [
        0.05,
        async () =>
          (
            await post(`${server.url}/signup`, {
              email: `soak-${Date.now()}-${++signups}@example.com`,
              password: PASSWORD,
            })
          ).status === 200,
      ],
    ];
    /** A password sign-in; its refresh token joins the pool the refreshes draw from (at most 64). */
    async function signIn() {
      const res = await post(`${server.url}/token?grant_type=password`, {
        email: "soak@example.com",
        password: PASSWORD,
      });
      if (res.status === 200) accessToken = res.body.access_token as string;
      if (res.status === 200 && tokens.length < 64) tokens.push(res.body.refresh_token as string);
      return res.status === 200;
    }
    const pick = () => {
      let r = Math.random();
      for (const [weight, run] of operations) {
        r -= weight;
        if (r <= 0) return run;
      }
      return operations[0]?.[1] as () => Promise<boolean>;
    };

    const tables = (
      await sql<
        { name: string }[]
      >`select tablename as name from pg_tables where schemaname = 'auth' order by 1`
    ).map((r) => r.name);
    // A default PostgreSQL vacuums by itself, visiting each database every minute; one run with
    // autovacuum off (as this project's CI machine's) never reclaims what the cleanup removes, and
    // every index walk steps over more dead entries as the run goes. The soak then vacuums its
    // tables each minute in autovacuum's place, and reports how long that took.
    const [{ autovacuum } = { autovacuum: "on" }] = await sql<{ autovacuum: string }[]>`show autovacuum`;
    const vacuumsItself = autovacuum === "off";
    if (vacuumsItself) log("autovacuum is off on this PostgreSQL: the soak vacuums its tables every minute");
    const vacuum = async () => {
      const started = performance.now();
      for (const table of tables) await sql`vacuum (analyze) auth.${sql(table)}`;
      return (performance.now() - started) / 1000;
    };
    /**
     * CPU time spent since the last reading by the server and by the backends serving it (read from
     * /proc: the database is on this machine). A backend that appeared since counts from its start;
     * one that ended since loses its last part (the pool keeps its connections under a steady load).
     */
    const backendCpu = new Map<number, number>();
    let serverCpu = cpuMicros(server.child.pid as number);
    const cpuSince = async () => {
      const pids = (
        await sql<{ pid: number }[]>`
          select pid from pg_stat_activity
          where datname = current_database() and application_name like 'authsvc%'`
      ).map((r) => r.pid);
      let db = 0;
      for (const pid of pids) {
        const now = cpuMicros(pid);
        if (Number.isNaN(now)) continue;
        db += now - (backendCpu.get(pid) ?? 0);
        backendCpu.set(pid, now);
      }
      const now = cpuMicros(server.child.pid as number);
      const spent = { server: now - serverCpu, db };
      serverCpu = now;
      return spent;
    };
    await cpuSince();
    const minutes: Minute[] = [];
    let latencies: number[] = [];
    let errors = 0;
    const ends = Date.now() + MINUTES * 60_000;
    const worker = async () => {
      while (Date.now() < ends) {
        const began = performance.now();
        const ok = await pick()().catch(() => false);
        latencies.push(performance.now() - began);
        if (!ok) errors++;
      }
    };
    const sampler = (async () => {
      // Each window starts where the last was read: counting the tables takes a moment, so the last
      // window may reach past the end of the load, and its rate is over the time the load ran.
      let windowStart = Date.now();
      for (let minute = 1; minute <= MINUTES && Date.now() < ends; minute++) {
        await new Promise((resolve) => setTimeout(resolve, Math.max(0, windowStart + 60_000 - Date.now())));
        const windowS = (Math.min(Date.now(), ends) - windowStart) / 1000;
        windowStart = Date.now();
        const sorted = latencies.sort((x, y) => x - y);
        const taken = {
          count: sorted.length,
          p99: sorted[Math.floor(sorted.length * 0.99)] ?? Number.NaN,
          errors,
          expired,
        };
        latencies = [];
        errors = 0;
        expired = 0;
        const cpu = await cpuSince();
        const rows: Record<string, number> = {};
        for (const table of tables) {
          const [row] = await sql<{ n: number }[]>`select count(*)::int as n from auth.${sql(table)}`;
          rows[table] = row?.n ?? 0;
        }
        const vacuumS = vacuumsItself ? await vacuum() : Number.NaN;
        const m = {
          minute,
          rps: windowS > 0 ? taken.count / windowS : 0,
          p99: taken.p99,
          errors: taken.errors,
          expired: taken.expired,
          rssMb: rssMb(server.child.pid as number),
          cpuUs: taken.count > 0 ? cpu.server / taken.count : Number.NaN,
          dbCpuUs: taken.count > 0 ? cpu.db / taken.count : Number.NaN,
          vacuumS,
          rows,
        };
        minutes.push(m);
        log(
          `minute ${minute}: ${m.rps.toFixed(0)} req/s, p99 ${m.p99.toFixed(0)} ms, ${m.errors} errors, ${m.expired} expired, RSS ${m.rssMb.toFixed(0)} MB, CPU µs/req server ${m.cpuUs.toFixed(0)} database ${m.dbCpuUs.toFixed(0)}, vacuum ${m.vacuumS.toFixed(1)} s, refresh_tokens ${rows.refresh_tokens}, audit_log_entries ${rows.audit_log_entries}`,
        );
      }
    })();
    await Promise.all([...Array.from({ length: CONNECTIONS }, worker), sampler]);
    report(minutes, tables);
  } finally {
    await sql.end();
    server.child.kill("SIGTERM");
    await new Promise((resolve) => server.child.once("exit", resolve));
    db.drop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

function report(minutes: Minute[], tables: string[]) {
  const n = (x: number, d = 0) => (Number.isFinite(x) ? x.toFixed(d) : "-");
  const shown = tables.filter((t) => minutes.some((m) => (m.rows[t] ?? 0) > 0));
  console.log(
    `\nauthsvc soak: ${MINUTES} min, ${CONNECTIONS} requests in flight, GET /user 70% / refresh 20% / password 5% / sign-up 5%, ${POPULATION} other users\n`,
  );
  console.log(
    `${Object.entries(RETENTION)
      .map(([k, v]) => `${k}=${v}`)
      .join(" ")}\n`,
  );
  console.log(
    `| minute | req/s | p99 ms | errors | expired | RSS MB | CPU µs/req | DB CPU µs/req | vacuum s | ${shown.join(" | ")} |`,
  );
  console.log(
    `| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ${shown.map(() => "---:").join(" | ")} |`,
  );
  for (const m of minutes) {
    console.log(
      `| ${m.minute} | ${n(m.rps)} | ${n(m.p99)} | ${m.errors} | ${m.expired} | ${n(m.rssMb)} | ${n(m.cpuUs)} | ${n(m.dbCpuUs)} | ${n(m.vacuumS, 1)} | ${shown.map((t) => m.rows[t] ?? 0).join(" | ")} |`,
    );
  }
  const span = Math.min(5, Math.floor(minutes.length / 2));
  if (span > 0) {
    const mean = (ms: Minute[], k: "rps" | "p99" | "rssMb" | "cpuUs" | "dbCpuUs") =>
      ms.reduce((s, m) => s + m[k], 0) / ms.length;
    const head = minutes.slice(0, span);
    const tail = minutes.slice(-span);
    console.log(
      `\nlast ${span} min ÷ first ${span} min: req/s ${n(mean(tail, "rps") / mean(head, "rps"), 2)}, p99 ${n(mean(tail, "p99") / mean(head, "p99"), 2)}, RSS ${n(mean(tail, "rssMb") / mean(head, "rssMb"), 2)}, CPU per request ${n(mean(tail, "cpuUs") / mean(head, "cpuUs"), 2)}, database CPU per request ${n(mean(tail, "dbCpuUs") / mean(head, "dbCpuUs"), 2)}`,
    );
  }
  if (args.has("json")) {
    const dir = join(root, "bench", "results");
    if (!existsSync(dir)) mkdirSync(dir, { recursive: true });
    const file = join(dir, `soak-${new Date().toISOString().replace(/[:.]/g, "-")}.json`);
    writeFileSync(
      file,
      `${JSON.stringify({ minutes: MINUTES, connections: CONNECTIONS, population: POPULATION, perMinute: minutes }, null, 2)}\n`,
    );
    console.log(`\nJSON: ${file}`);
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
