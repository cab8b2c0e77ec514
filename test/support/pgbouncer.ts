import { execFileSync } from "node:child_process";
import { chownSync, existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { accepts, account, readIfExists, runningAsRoot, spawnDaemon, waitUntilReady } from "./daemon.js";
import { freePort } from "./free-port.js";

/**
 * Debian's PgBouncer (`/usr/sbin/pgbouncer`, or PGBOUNCER_BIN) in transaction mode on a free loopback
 * port, in front of the PostgreSQL of `targetUrl`, as production runs many instances behind it: every
 * transaction of a client may run on another server connection, so no session state (named prepared
 * statements, session-level SET, LISTEN, session advisory locks) survives between transactions.
 * Its configuration, user list, log and pid file are written to a temporary folder.
 */
export const PGBOUNCER_BIN = process.env.PGBOUNCER_BIN ?? "/usr/sbin/pgbouncer";

/** Whether the binary is installed: a test through PgBouncer is skipped, with this message, when not. */
export const pgbouncerInstalled = () => existsSync(PGBOUNCER_BIN);
export const PGBOUNCER_MISSING = `PgBouncer tests NOT RUN: ${PGBOUNCER_BIN} is missing (apt-get install pgbouncer)`;

/**
 * Whether the installed PgBouncer keeps protocol-level prepared statements across transactions in
 * transaction mode (1.21 and later, with `max_prepared_statements`): then the servers behind it may
 * keep `AUTHSVC_DB_PREPARED_STATEMENTS=true`. Debian 12's 1.18 does not.
 */
export function pgbouncerKeepsPreparedStatements(): boolean {
  try {
    const out = execFileSync(PGBOUNCER_BIN, ["--version"], { encoding: "utf8" });
    const [, major = "0", minor = "0"] = /PgBouncer (\d+)\.(\d+)/.exec(out) ?? [];
    return Number(major) > 1 || (Number(major) === 1 && Number(minor) >= 21);
  } catch {
    return false;
  }
}

export interface PgBouncer {
  /** `targetUrl` with PgBouncer's host and port. */
  url: string;
  port: number;
  /** The PgBouncer process (the bench adds its CPU time to the database's). */
  pid: number;
  /** Whether named prepared statements work through it (see pgbouncerKeepsPreparedStatements). */
  preparedStatements: boolean;
  /** What PgBouncer logged so far. */
  log(): string;
  stop(): Promise<void>;
}

export async function startPgBouncer(
  targetUrl: string,
  options: { poolSize?: number; maxClients?: number } = {},
): Promise<PgBouncer> {
  const target = new URL(targetUrl);
  const user = decodeURIComponent(target.username || "postgres");
  const dir = mkdtempSync(join(tmpdir(), "authsvc-pgbouncer-"));
  const port = await freePort();
  const config = join(dir, "pgbouncer.ini");
  const logFile = join(dir, "pgbouncer.log");
  const preparedStatements = pgbouncerKeepsPreparedStatements();
  writeFileSync(join(dir, "userlist.txt"), `"${user}" "${decodeURIComponent(target.password)}"\n`);
  writeFileSync(
    config,
    [
      "[databases]",
      // Every database name the clients ask for, on the target server.
      `* = host=${target.hostname} port=${target.port || "5432"}`,
      "[pgbouncer]",
      "listen_addr = 127.0.0.1",
      `listen_port = ${port}`,
      "unix_socket_dir =",
      // Loopback only, as the target PostgreSQL of the tests (trust); the user must still be listed.
      "auth_type = trust",
      `auth_file = ${join(dir, "userlist.txt")}`,
      "pool_mode = transaction",
      `default_pool_size = ${options.poolSize ?? 20}`,
      `max_client_conn = ${options.maxClients ?? 500}`,
      // postgres.js sends these at startup; PgBouncer would refuse a parameter it does not track.
      "ignore_startup_parameters = extra_float_digits,options",
      // Named statements carried from one server connection to another (1.21+); unknown to older ones.
      ...(preparedStatements ? ["max_prepared_statements = 200"] : []),
      `logfile = ${logFile}`,
      `pidfile = ${join(dir, "pgbouncer.pid")}`,
      "",
    ].join("\n"),
  );
  // PgBouncer refuses to run as root: as root, it runs as the postgres account, which owns the folder.
  const asRoot = runningAsRoot();
  const owner = asRoot ? account("postgres") : undefined;
  if (asRoot && !owner) throw new Error("PgBouncer as root needs a postgres account to run as");
  if (owner) {
    for (const path of [dir, config, join(dir, "userlist.txt")]) chownSync(path, owner.uid, owner.gid);
  }
  const daemon = spawnDaemon(PGBOUNCER_BIN, [...(owner ? ["-u", "postgres"] : []), config]);
  const log = () => readIfExists(logFile) + daemon.stderr();
  await waitUntilReady(daemon, () => accepts(port), { what: `PgBouncer on port ${port}`, dir, log });
  const url = new URL(targetUrl);
  url.hostname = "127.0.0.1";
  url.port = String(port);
  return {
    url: url.href,
    port,
    pid: daemon.pid,
    preparedStatements,
    log,
    async stop() {
      await daemon.stop("SIGINT");
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
