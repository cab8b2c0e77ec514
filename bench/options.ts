/** The bench's command-line options (run.ts lists them) and the fixed values of its runs. */

export const args = new Map(
  process.argv.slice(2).map((a) => {
    const [k = "", v = "true"] = a.replace(/^--/, "").split("=");
    return [k, v] as const;
  }),
);
export const list = (name: string, fallback: string) =>
  (args.get(name) ?? fallback).split(",").filter(Boolean);
export const DURATION_S = Number(args.get("duration") ?? process.env.BENCH_DURATION ?? 5);
export const ROUNDS = Number(args.get("rounds") ?? 3);
export const CONNECTIONS = list("connections", process.env.BENCH_CONNECTIONS ?? "16,64").map(Number);
// `--scenarios=none`: only the extras (with `--extras=start` alone, no PostgreSQL is needed at all).
export const SCENARIOS = list("scenarios", "user,refresh,client-credentials,password,signup").filter(
  (s) => s !== "none",
);
const extrasArg = list("extras", "");
export const POPULATION = Number(args.get("population") ?? 10_000);
// Both servers' database pool size (default: each one's own default, 10 for both).
export const POOL = args.get("pool");
// Both servers reach the database through a PgBouncer in transaction mode that the bench starts.
export const PGBOUNCER = args.has("pgbouncer");
export const EXTRAS = extrasArg.includes("all")
  ? ["admin", "decay", "rss", "tail", "mixed", "start"]
  : extrasArg;

export const PASSWORD = "bench-password";
export const SECRET = "a-benchmark-secret-of-at-least-32-characters";

export const json = { "content-type": "application/json" };
