/**
 * The bench's extras (`--extras=`): decay of GET /user over a long run, RSS under load, a mixed load,
 * and start-up times. Each reports its own lines; run.ts calls them after the scenarios.
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import autocannon from "autocannon";
import { keepAliveLoad } from "./keep-alive-clients.js";
import { args, DURATION_S, json, PASSWORD, SECRET } from "./options.js";
import { log, median, rssMb, type Server, startServer, stop } from "./processes.js";

/** Five back-to-back 10 s runs of GET /user at 64 connections: the fifth within 10% of the first. */
export async function decay(server: Server, token: string) {
  const runs: { rps: number; p99: number; rssMb: number }[] = [];
  for (let i = 0; i < 5; i++) {
    const r = await autocannon({
      url: `${server.url}/user`,
      headers: { authorization: `Bearer ${token}` },
      connections: 64,
      duration: 10,
    });
    runs.push({ rps: r.requests.average, p99: r.latency.p99, rssMb: rssMb(server.pid) });
    log(`decay run ${i + 1}: ${r.requests.average.toFixed(0)} req/s`);
  }
  const fifthToFirst = (runs[4]?.rps ?? 0) / (runs[0]?.rps ?? 1);
  return { runs, fifthToFirst, met: fifthToFirst >= 0.9 };
}

/** The peak of the process's RSS while `work` runs, sampled every 100 ms. */
async function peakRss<T>(pid: number, work: () => Promise<T>): Promise<{ result: T; peakMb: number }> {
  let peak = rssMb(pid);
  const timer = setInterval(() => {
    peak = Math.max(peak, rssMb(pid));
  }, 100);
  try {
    const result = await work();
    return { result, peakMb: Math.max(peak, rssMb(pid)) };
  } finally {
    clearInterval(timer);
  }
}

/**
 * GET /user over 1,000 keep-alive connections for 10 s on a fresh process, twice: peak RSS and p99.
 * `storm` is autocannon opening all 1,000 at once while the load starts; Node accepts one pending
 * connection per event-loop iteration, so under load most of them are accepted late or not within
 * the run (`answered` counts the connections that got any answer), and its p99 measures that
 * connection storm. `held` opens and primes every connection first (bench/keep-alive-clients.ts),
 * then loads all 1,000: the steady state the targets are about (peak RSS ≤ 150 MB, p99 ≤ 1 s).
 */
export async function rss(server: Server, token: string) {
  const idle = rssMb(server.pid);
  const answered = new Set<unknown>();
  const storm = await peakRss(server.pid, () => {
    // The instance autocannon returns is a promise of the result and an emitter of each response.
    const run = autocannon({
      url: `${server.url}/user`,
      headers: { authorization: `Bearer ${token}` },
      connections: 1000,
      duration: 10,
      timeout: 30,
    }) as unknown as Promise<autocannon.Result> & {
      on(event: "response", listener: (client: unknown) => void): void;
    };
    run.on("response", (client: unknown) => answered.add(client));
    return run;
  });
  const held = await peakRss(server.pid, () =>
    keepAliveLoad({
      url: `${server.url}/user`,
      headers: { authorization: `Bearer ${token}` },
      connections: 1000,
      durationS: 10,
    }),
  );
  const r = storm.result;
  return {
    idleMb: idle,
    storm: {
      peakMb: storm.peakMb,
      rps: r.requests.average,
      p99: r.latency.p99,
      answered: answered.size,
      errors: r.non2xx + r.errors + r.timeouts,
    },
    held: {
      peakMb: held.peakMb,
      rps: held.result.rps,
      p50: held.result.p50,
      p99: held.result.p99,
      answered: held.result.answered,
      errors: held.result.errors,
      primeMs: held.result.primeMs,
    },
    met: Math.max(storm.peakMb, held.peakMb) <= 150 && held.result.p99 <= 1000,
  };
}

/** GET /user p99 alone, then while 16 connections of password sign-ins saturate the hash pool. */
export async function mixed(server: Server, token: string) {
  const user = {
    url: `${server.url}/user`,
    headers: { authorization: `Bearer ${token}` },
    connections: 16,
    duration: DURATION_S,
  };
  const alone = await autocannon(user);
  const [loaded, signins] = await Promise.all([
    autocannon(user),
    autocannon({
      url: `${server.url}/token?grant_type=password`,
      method: "POST",
      headers: json,
      body: JSON.stringify({ email: "bench@example.com", password: PASSWORD }),
      connections: 16,
      duration: DURATION_S,
    }),
  ]);
  const ratio = loaded.latency.p99 / alone.latency.p99;
  return {
    aloneP99: alone.latency.p99,
    loadedP99: loaded.latency.p99,
    signinRps: signins.requests.average,
    ratio,
    met: ratio <= 2,
  };
}

/** CPU time (user + system, ms) a process has used so far; undefined where /proc is missing. */
function cpuMs(pid: number): number | undefined {
  try {
    // Fields after the command name (which may hold spaces, hence the split on ") "): utime is the
    // 12th, stime the 13th; both in clock ticks, 100 a second on Linux.
    const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]?.split(" ") ?? [];
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
  } catch {
    return undefined;
  }
}

const loadAverage = () => readFileSync("/proc/loadavg", "utf8").split(" ").slice(0, 3).join(" ");

/**
 * `node apps/http/dist/main.js` on the embedded database: time until /health answers 200, and the CPU
 * time the server used until then (less noisy than the wall time on a shared machine), on a fresh data
 * folder and on a restart, `--start-runs` pairs.
 */
export async function start() {
  const runs = Number(args.get("start-runs") ?? 3);
  const samples: { fresh: number[]; restart: number[]; freshCpu: number[]; restartCpu: number[] } = {
    fresh: [],
    restart: [],
    freshCpu: [],
    restartCpu: [],
  };
  for (let run = 0; run < runs; run++) {
    const dataDir = mkdtempSync(join(tmpdir(), "authsvc-bench-start-"));
    try {
      // The first start creates the data folder and migrates; the second is a restart.
      for (const label of ["fresh", "restart"] as const) {
        const began = performance.now();
        const server = await startServer(["apps/http/dist/main.js"], {
          AUTHSVC_API_HOST: "127.0.0.1",
          PORT: "0",
          AUTHSVC_DATA_DIR: dataDir,
          AUTHSVC_JWT_SECRET: SECRET,
          AUTHSVC_SITE_URL: "http://localhost:3000",
        });
        for (;;) {
          const res = await fetch(`${server.url}/health`).catch(() => null);
          if (res?.status === 200) break;
          await new Promise((r) => setTimeout(r, 20));
        }
        const ms = performance.now() - began;
        const cpu = cpuMs(server.pid);
        samples[label].push(ms);
        if (cpu !== undefined) samples[label === "fresh" ? "freshCpu" : "restartCpu"].push(cpu);
        log(
          `start (${label}) ${run + 1}/${runs}: ${ms.toFixed(0)} ms, CPU ${cpu ?? "-"} ms, load ${loadAverage()}`,
        );
        await stop(server);
      }
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  }
  const freshMs = median(samples.fresh);
  const restartMs = median(samples.restart);
  return {
    freshMs,
    restartMs,
    freshCpuMs: median(samples.freshCpu),
    restartCpuMs: median(samples.restartCpu),
    runs: samples,
    met: freshMs <= 3000 && restartMs <= 3000,
  };
}
