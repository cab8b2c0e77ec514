/**
 * `npx tsx bench/mail-burst.ts [--rounds=3] [--burst=120] [--stdout=file|pipe]`: how much a burst of
 * mail requests slows unrelated admin reads (issue "Robustness": their p99 during 120 parallel
 * `POST /otp` within 2× their unloaded p99). A separate process (bench/admin-reader.mjs) reads
 * `GET /admin/users` one after another: per round for 1 s unloaded, then while the burst runs, against
 * a mail server holding each message 300 ms; the next round starts once every message has arrived.
 * 20 /otp before the first round warm the server's path and mail sessions.
 * Prints both p99s, the server's event-loop delay (node --import bench/loop-delay.mjs) and its CPU time
 * per /otp, and the machine's load. A timing target on a shared machine is a measurement, not a test.
 *
 * --concurrency=N sets AUTHSVC_API_MESSAGE_CONCURRENCY; --cpu-prof=DIR writes a CPU profile of the server.
 *
 * Database: BENCH_DATABASE_URL, else a fresh database on the PostgreSQL at 127.0.0.1:5432.
 */
import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { startSmtpSink } from "@authsvc/adapters/testing";
import { roleKey, TEST_JWT_SECRET } from "@authsvc/http/testing";

const root = fileURLToPath(new URL("..", import.meta.url));
const args = new Map(
  process.argv.slice(2).map((a) => {
    const [k = "", v = "true"] = a.replace(/^--/, "").split("=");
    return [k, v] as const;
  }),
);
const ROUNDS = Number(args.get("rounds") ?? 3);
const BURST = Number(args.get("burst") ?? 120);
const STDOUT = args.get("stdout") ?? "file";
const DELAY_MS = 300;
/** How long each round's unloaded reads run. */
const UNLOADED_MS = 1_000;
const dir = mkdtempSync(join(tmpdir(), "authsvc-mail-burst-"));
const loopFile = join(dir, "loop.jsonl");
const log = (line: string) => process.stderr.write(`${line}\n`);
const p99 = (values: number[]) =>
  [...values].sort((a, b) => a - b)[Math.max(0, Math.ceil(values.length * 0.99) - 1)] ?? Number.NaN;
const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = (sorted.length - 1) / 2;
  return ((sorted[Math.floor(middle)] ?? Number.NaN) + (sorted[Math.ceil(middle)] ?? Number.NaN)) / 2;
};

function psql(command: string) {
  execFileSync("psql", ["-q", "-h", "127.0.0.1", "-U", "postgres", "-d", "postgres", "-c", command], {
    stdio: "ignore",
  });
}

const logFile = join(dir, "server.log");

/** The server's own duration (its request log) of the reads whose x-bench-id starts with `prefix`. */
function serverSide(prefix: string): number[] {
  return readText(logFile)
    .split("\n")
    .filter((line) => line.includes(`"request_id":"${prefix}`) && line.includes("request completed"))
    .map((line) => Number((JSON.parse(line) as { duration_ms: number }).duration_ms));
}

async function startServer(env: Record<string, string>): Promise<{ child: ChildProcess; url: string }> {
  const out = openSync(logFile, "w");
  // --cpu-prof=DIR: a CPU profile of the server (written when it exits), to see where the burst's time goes.
  const profile = args.has("cpu-prof") ? ["--cpu-prof", `--cpu-prof-dir=${args.get("cpu-prof")}`] : [];
  const node = [...profile, "--import", "./bench/loop-delay.mjs", "apps/http/dist/main.js"];
  const child = spawn(process.execPath, node, {
    cwd: root,
    env: { PATH: process.env.PATH ?? "", LOOP_DELAY_FILE: loopFile, ...env },
    // "pipe": what a supervisor reading the server's output sees when it reads late (drained here).
    stdio: ["ignore", STDOUT === "pipe" ? "pipe" : out, "inherit"],
  });
  closeSync(out);
  let text = "";
  child.stdout?.on("data", (chunk: Buffer) => {
    if (text.length < 1_000_000) text += chunk.toString();
  });
  for (const began = Date.now(); Date.now() - began < 60_000; ) {
    const lines = (STDOUT === "pipe" ? text : readFileSync(logFile, "utf8")).split("\n");
    for (const line of lines) {
      if (!line.startsWith("{")) continue;
      const parsed = JSON.parse(line) as { url?: string };
      if (parsed.url) return { child, url: parsed.url.replace("0.0.0.0", "127.0.0.1") };
    }
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  child.kill("SIGKILL");
  throw new Error("server did not start within 60 s");
}

/** The loop-delay line the server appends on SIGUSR2: delay since the previous one, and CPU time. */
type LoopSample = { p99: number; max: number; cpuMs: number };
async function loopSample(child: ChildProcess): Promise<LoopSample> {
  const before = readText(loopFile).split("\n").length;
  child.kill("SIGUSR2");
  for (;;) {
    const lines = readText(loopFile).trim().split("\n");
    if (lines.length >= before && lines[before - 1]) return JSON.parse(lines[before - 1] as string);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

function readText(path: string): string {
  try {
    return readFileSync(path, "utf8");
  } catch {
    return "";
  }
}

async function main() {
  const name = `authsvc_burst_${Date.now()}`;
  const url = process.env.BENCH_DATABASE_URL ?? `postgres://postgres@127.0.0.1:5432/${name}`;
  if (!process.env.BENCH_DATABASE_URL) psql(`create database ${name}`);
  const sink = await startSmtpSink({ delayMs: DELAY_MS });
  const server = await startServer({
    DATABASE_URL: url,
    AUTHSVC_SITE_URL: "http://localhost:3000",
    AUTHSVC_API_EXTERNAL_URL: "http://localhost:9999",
    AUTHSVC_JWT_SECRET: TEST_JWT_SECRET,
    AUTHSVC_API_HOST: "127.0.0.1",
    PORT: "0",
    AUTHSVC_SMTP_HOST: sink.host,
    AUTHSVC_SMTP_PORT: String(sink.port),
    AUTHSVC_SMTP_ADMIN_EMAIL: "auth@example.com",
    AUTHSVC_RATE_LIMIT_EMAIL_SENT: "100000",
    AUTHSVC_DB_MAX_POOL_SIZE: "10",
    AUTHSVC_API_REQUEST_ID_HEADER: "x-bench-id",
    ...(args.has("concurrency") ? { AUTHSVC_API_MESSAGE_CONCURRENCY: String(args.get("concurrency")) } : {}),
  });
  const serviceKey = await roleKey("service_role");
  const timed = async (path: string, init: RequestInit = {}) => {
    const started = performance.now();
    const res = await fetch(`${server.url}${path}`, init);
    await res.arrayBuffer();
    return { status: res.status, ms: performance.now() - started };
  };
  // The admin reads come from another process: an unrelated client does not share the burst
  // generator's event loop (nor the SMTP sink's, which runs here), so its timings are the server's.
  const reader = spawn(process.execPath, [join(root, "bench/admin-reader.mjs"), server.url, serviceKey], {
    stdio: ["pipe", "pipe", "inherit"],
  });
  let readerOut = "";
  reader.stdout?.on("data", (chunk: Buffer) => {
    readerOut += chunk.toString();
  });
  const phase = (name: string) => reader.stdin?.write(`${name}\n`);
  const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
  const starts: number[] = [];
  const rounds: { burstMs: number; failed: number; quiet: LoopSample; loaded: LoopSample }[] = [];

  const otp = (email: string) =>
    timed("/otp", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ email }),
    });
  try {
    phase("warm");
    await sleep(500);
    phase("");
    // A running server has compiled its /otp path and opened its mail connections; so has this one.
    const warm = sink.mails.length;
    await Promise.all(Array.from({ length: 20 }, (_, i) => otp(`warm-${Date.now()}-${i}@example.com`)));
    for (const began = Date.now(); sink.mails.length < warm + 20 && Date.now() - began < 30_000; ) {
      await sleep(20);
    }
    for (let round = 1; round <= ROUNDS; round++) {
      phase("");
      await sleep(100);
      await loopSample(server.child);
      phase(`u${round}`);
      await sleep(UNLOADED_MS);
      phase("");
      await sleep(50); // the read in flight ends before the CPU sample
      const quiet = await loopSample(server.child);

      phase(`b${round}`);
      const started = performance.now();
      starts.push(Math.round(performance.timeOrigin + started));
      const sent = sink.mails.length;
      const burst = await Promise.all(
        Array.from({ length: BURST }, (_, i) => otp(`burst-${Date.now()}-${round}-${i}@example.com`)),
      );
      const burstMs = performance.now() - started;
      phase("");
      // Every message delivered before the next round's unloaded reads, which would otherwise share the
      // server with the tail of this burst's deliveries.
      for (const began = Date.now(); sink.mails.length < sent + BURST && Date.now() - began < 30_000; ) {
        await sleep(20);
      }
      const loaded = await loopSample(server.child);
      rounds.push({ burstMs, failed: burst.filter((r) => r.status !== 200).length, quiet, loaded });
    }
    reader.stdin?.write("end\n");
    await new Promise((resolve) => reader.once("exit", resolve));
    const samples = JSON.parse(readerOut) as Record<string, number[]>;
    rounds.forEach(({ burstMs, failed, quiet, loaded }, index) => {
      const round = index + 1;
      const unloaded = samples[`u${round}`] ?? [];
      const during = samples[`b${round}`] ?? [];
      const readUs = (quiet.cpuMs * 1000) / unloaded.length;
      const otpUs = (loaded.cpuMs * 1000 - readUs * during.length) / BURST;
      const [before, under] = [p99(unloaded), p99(during)];
      // The slowest reads, and when they began after the burst did: where in the burst the time goes.
      const at = samples[`b${round}@`] ?? [];
      const worst = during
        .map((ms, i) => ({ ms, after: (at[i] ?? 0) - (starts[index] ?? 0) }))
        .sort((a, b) => b.ms - a.ms)
        .slice(0, 3);
      const [serverBefore, serverUnder] = [p99(serverSide(`u${round}-`)), p99(serverSide(`b${round}-`))];
      log(
        `round ${round}: admin p99 unloaded ${before.toFixed(1)} ms, during the burst ${under.toFixed(1)} ms ` +
          `(${(under / before).toFixed(2)}×, ${unloaded.length} / ${during.length} reads; server-side ${serverBefore} → ${serverUnder} ms); ` +
          `${BURST} /otp in ${burstMs.toFixed(0)} ms, ${failed} not 200; server loop delay p99/max quiet ` +
          `${quiet.p99}/${quiet.max} ms, burst ${loaded.p99}/${loaded.max} ms; server CPU ${readUs.toFixed(0)} µs per quiet read, ` +
          `${otpUs.toFixed(0)} µs per /otp (its delivery included, the reads during it not); slowest reads ` +
          worst.map((w) => `${w.ms.toFixed(1)} ms at +${w.after} ms`).join(", "),
      );
    });
    // A round's p99 of ~150 reads is its second-slowest read; the rounds' reads together give a p99 of
    // about a thousand, and the median of the rounds' ratios shows how the rounds spread.
    const all = (prefix: string) => rounds.flatMap((_, i) => samples[`${prefix}${i + 1}`] ?? []);
    const [allUnloaded, allDuring] = [all("u"), all("b")];
    const ratios = rounds.map((_, i) => p99(samples[`b${i + 1}`] ?? []) / p99(samples[`u${i + 1}`] ?? []));
    log(
      `all rounds: admin p99 unloaded ${p99(allUnloaded).toFixed(1)} ms (${allUnloaded.length} reads), ` +
        `during the bursts ${p99(allDuring).toFixed(1)} ms (${allDuring.length} reads): ` +
        `${(p99(allDuring) / p99(allUnloaded)).toFixed(2)}×; rounds' ratios: median ` +
        `${median(ratios).toFixed(2)}, ` +
        `${ratios.filter((r) => r <= 2).length} of ${ratios.length} within 2×`,
    );
    log(
      `load ${loadavg()
        .map((l) => l.toFixed(2))
        .join(" ")}`,
    );
  } finally {
    reader.kill();
    const exited = new Promise((resolve) => server.child.once("exit", resolve));
    server.child.kill("SIGTERM");
    await exited;
    await sink.close();
    if (!process.env.BENCH_DATABASE_URL) psql(`drop database ${name} with (force)`);
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
