import { randomBytes } from "node:crypto";
import { chownSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import {
  account,
  type Daemon,
  fillPlaceholders,
  readIfExists,
  runningAsRoot,
  spawnDaemon,
  waitUntilReady,
} from "./daemon.js";
import { freePort } from "./free-port.js";

/**
 * A high-availability PostgreSQL on this machine, as docs/operations.md describes it: Debian's etcd
 * (one member) and two Patroni nodes running docs/examples/patroni.yml as it is, a primary and a
 * synchronous streaming replica of PostgreSQL 15. Every file (etcd's data, both data folders, the
 * configurations and logs) is in one temporary folder, removed by stop(). As root, Patroni (and so
 * PostgreSQL, which refuses root) runs as the postgres account, which then owns the folder.
 */
export const PATRONI_BIN = process.env.PATRONI_BIN ?? "/usr/bin/patroni";
export const ETCD_BIN = process.env.ETCD_BIN ?? "/usr/bin/etcd";
export const POSTGRES_BIN_DIR = process.env.POSTGRES_BIN_DIR ?? "/usr/lib/postgresql/15/bin";
export const PATRONI_EXAMPLE = fileURLToPath(new URL("../../docs/examples/patroni.yml", import.meta.url));

const BINARIES = [PATRONI_BIN, ETCD_BIN, join(POSTGRES_BIN_DIR, "postgres")];
/** Whether the binaries are installed: the failover test is skipped, with this message, when not. */
export const patroniInstalled = () => BINARIES.every((bin) => existsSync(bin));
export const PATRONI_MISSING = `failover tests NOT RUN: one of ${BINARIES.join(", ")} is missing (apt-get install patroni etcd-server postgresql-15)`;

export interface PatroniNode {
  name: string;
  pgPort: number;
  restPort: number;
  dataDir: string;
}

/** A member as Patroni's REST API (`GET /cluster`) lists it. */
export interface Member {
  name: string;
  role: string; // "leader", "sync_standby", "replica"
  state: string; // "running", "streaming", …
  port: number;
  timeline?: number;
}

export interface PatroniCluster {
  nodes: [PatroniNode, PatroniNode];
  /** The superuser's url naming both nodes, read-write sessions only: what authsvc is given. */
  url: string;
  /** The superuser's url of one node alone (for checks made on it directly). */
  nodeUrl(node: PatroniNode): string;
  /** The members as a node still running reports them ([] when none answers). */
  members(): Promise<Member[]>;
  /** Resolves with the leader once it runs and a synchronous standby streams from it. */
  untilLeaderAndSyncStandby(timeoutMs: number): Promise<PatroniNode>;
  /** Resolves with a leader other than `former` once it runs (a promotion). */
  untilLeaderOtherThan(former: PatroniNode, timeoutMs: number): Promise<PatroniNode>;
  /** Kills the node at once, as a machine failure would: SIGKILL to Patroni and to its postmaster. */
  kill(node: PatroniNode): Promise<void>;
  /** What etcd and the Patroni nodes logged. */
  log(): string;
  /** Stops every process (killed: the data goes too) and removes the folder. */
  stop(): Promise<void>;
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function getJson(url: string): Promise<unknown> {
  try {
    const res = await fetch(url, { signal: AbortSignal.timeout(1_000) });
    return res.ok ? await res.json() : undefined;
  } catch {
    return undefined;
  }
}

/** The postmaster's pid, from the first line of postmaster.pid (undefined when it is not running). */
function postmasterPid(dataDir: string): number | undefined {
  const pid = Number(readIfExists(join(dataDir, "postmaster.pid")).split("\n")[0]);
  return Number.isInteger(pid) && pid > 0 ? pid : undefined;
}

function signal(pid: number | undefined, name: NodeJS.Signals) {
  if (pid === undefined) return;
  try {
    process.kill(pid, name);
  } catch {
    // Already gone.
  }
}

async function startEtcd(dir: string): Promise<{ daemon: Daemon; clientPort: number }> {
  const [clientPort, peerPort] = [await freePort(), await freePort()];
  const client = `http://127.0.0.1:${clientPort}`;
  const peer = `http://127.0.0.1:${peerPort}`;
  const daemon = spawnDaemon(ETCD_BIN, [
    "--name=authsvc-test",
    `--data-dir=${join(dir, "etcd")}`,
    `--listen-client-urls=${client}`,
    `--advertise-client-urls=${client}`,
    `--listen-peer-urls=${peer}`,
    `--initial-advertise-peer-urls=${peer}`,
    `--initial-cluster=authsvc-test=${peer}`,
    "--log-level=warn",
  ]);
  const healthy = async () => ((await getJson(`${client}/health`)) as { health?: string })?.health === "true";
  await waitUntilReady(daemon, healthy, { what: `etcd on port ${clientPort}`, dir, log: daemon.stderr });
  return { daemon, clientPort };
}

export async function startPatroniCluster(): Promise<PatroniCluster> {
  const dir = mkdtempSync(join(tmpdir(), "authsvc-patroni-"));
  const owner = runningAsRoot() ? account("postgres") : undefined;
  if (runningAsRoot() && !owner) throw new Error("Patroni as root needs a postgres account to run as");
  const superuserPassword = randomBytes(12).toString("hex");
  const etcd = await startEtcd(dir);
  const nodes: [PatroniNode, PatroniNode] = [await node(dir, "pg1"), await node(dir, "pg2")];
  const patronis = new Map<string, Daemon>();
  const logs = () =>
    [
      `etcd:\n${etcd.daemon.stderr()}`,
      ...nodes.map((n) => `${n.name}:\n${patronis.get(n.name)?.stderr() ?? ""}`),
    ]
      .join("\n")
      .slice(-20_000);
  const template = readFileSync(PATRONI_EXAMPLE, "utf8");
  const replicationPassword = randomBytes(12).toString("hex");
  for (const n of nodes) {
    const folder = join(dir, n.name);
    const config = join(folder, "patroni.yml");
    writeFileSync(
      config,
      fillPlaceholders(template, {
        NAME: n.name,
        REST_PORT: String(n.restPort),
        PG_PORT: String(n.pgPort),
        ETCD_HOSTS: `127.0.0.1:${etcd.clientPort}`,
        DATA_DIR: n.dataDir,
        BIN_DIR: POSTGRES_BIN_DIR,
        PGPASS: join(folder, "pgpass"),
        SOCKET_DIR: folder,
        SUPERUSER_PASSWORD: superuserPassword,
        REPLICATION_PASSWORD: replicationPassword,
      }),
    );
    if (owner) for (const path of [folder, config]) chownSync(path, owner.uid, owner.gid);
  }
  if (owner) chownSync(dir, owner.uid, owner.gid);

  const startPatroni = (n: PatroniNode) => {
    const config = join(dir, n.name, "patroni.yml");
    // setpriv executes Patroni in its place (no process in between), so the pid is Patroni's own.
    const daemon = owner
      ? spawnDaemon(
          "setpriv",
          [`--reuid=${owner.uid}`, `--regid=${owner.gid}`, "--init-groups", PATRONI_BIN, config],
          {
            ...process.env,
            HOME: join(dir, n.name),
          },
        )
      : spawnDaemon(PATRONI_BIN, [config]);
    patronis.set(n.name, daemon);
    return daemon;
  };

  const members = async (): Promise<Member[]> => {
    for (const n of nodes) {
      const cluster = (await getJson(`http://127.0.0.1:${n.restPort}/cluster`)) as
        | { members?: Member[] }
        | undefined;
      if (cluster?.members) return cluster.members;
    }
    return [];
  };
  const byName = (name: string | undefined) => nodes.find((n) => n.name === name);
  const until = async <T>(
    what: string,
    timeoutMs: number,
    found: () => Promise<T | undefined>,
  ): Promise<T> => {
    for (const began = Date.now(); ; await pause(100)) {
      const value = await found();
      if (value !== undefined) return value;
      if (Date.now() - began > timeoutMs) throw new Error(`${what} within ${timeoutMs} ms:\n${logs()}`);
    }
  };

  const stop = async () => {
    for (const n of nodes) {
      await patronis.get(n.name)?.stop("SIGKILL");
      // Immediate shutdown: the postmaster ends its backends and exits (the data is thrown away).
      signal(postmasterPid(n.dataDir), "SIGQUIT");
    }
    await etcd.daemon.stop("SIGKILL");
    for (const n of nodes) {
      for (let waited = 0; postmasterAlive(n.dataDir) && waited < 5_000; waited += 50) await pause(50);
      signal(postmasterPid(n.dataDir), "SIGKILL");
    }
    rmSync(dir, { recursive: true, force: true });
  };

  // Both at once: one wins the race to initialize the cluster (initdb, once) and the other waits for
  // it, then clones it with pg_basebackup.
  for (const n of nodes) startPatroni(n);

  const cluster: PatroniCluster = {
    nodes,
    url: `postgres://postgres:${superuserPassword}@${nodes.map((n) => `127.0.0.1:${n.pgPort}`).join(",")}/postgres?target_session_attrs=read-write`,
    nodeUrl: (n) => `postgres://postgres:${superuserPassword}@127.0.0.1:${n.pgPort}/postgres`,
    members,
    untilLeaderAndSyncStandby: (timeoutMs) =>
      until("no leader with a synchronous standby", timeoutMs, async () => {
        const list = await members();
        const leader = list.find((m) => m.role === "leader" && m.state === "running");
        const standby = list.find(
          (m) => m.role === "sync_standby" && ["running", "streaming"].includes(m.state),
        );
        return leader && standby ? byName(leader.name) : undefined;
      }),
    untilLeaderOtherThan: (former, timeoutMs) =>
      until(`no leader other than ${former.name}`, timeoutMs, async () => {
        const leader = (await members()).find((m) => m.role === "leader" && m.state === "running");
        return leader && leader.name !== former.name ? byName(leader.name) : undefined;
      }),
    async kill(n) {
      const pid = postmasterPid(n.dataDir);
      await patronis.get(n.name)?.stop("SIGKILL");
      signal(pid, "SIGKILL");
    },
    log: logs,
    stop,
  };
  try {
    await cluster.untilLeaderAndSyncStandby(90_000);
  } catch (error) {
    await stop();
    throw error;
  }
  return cluster;

  async function node(root: string, name: string): Promise<PatroniNode> {
    const folder = join(root, name);
    mkdirSync(folder, { mode: 0o700 });
    return { name, pgPort: await freePort(), restPort: await freePort(), dataDir: join(folder, "data") };
  }
}

/** Whether the postmaster still runs (an exited one whose parent, Patroni, was killed is a zombie). */
function postmasterAlive(dataDir: string): boolean {
  const pid = postmasterPid(dataDir);
  if (pid === undefined) return false;
  const stat = readIfExists(`/proc/${pid}/stat`);
  return stat !== "" && !/^\d+ \(.*\) Z/.test(stat);
}
