import { randomBytes } from "node:crypto";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startEmbeddedPostgres } from "@authsvc/adapters";
import { testDatabase } from "@authsvc/adapters/testing";
import postgres from "postgres";

/**
 * A database of the test's own that it can take away from the server and give back, on either kind
 * of test database: a real server (a new database, closed with `allow_connections false` and its
 * backends killed with pg_terminate_backend) or an embedded one started for this test alone, whose
 * interrupt() does what PostgreSQL does: FATAL 57P01 to each session before closing it, FATAL 57P03 to
 * each new one. A silent close instead never gave postgres.js the window between the error and the
 * close in which the crash and the long waits of the old code happened, so that test passed on it.
 */
export interface DisposableDatabase {
  url: string;
  /** Whether the server must use unnamed statements (embedded). */
  embedded: boolean;
  /** Kills the server's connections and refuses new ones; resolves how many were killed. */
  takeDown(): Promise<number>;
  /** Lets connections in again; resolves once the database answers them. */
  bringBack(): Promise<void>;
  /** Connections the server (application_name authsvc) holds now. */
  serverConnections(): Promise<number>;
  drop(): Promise<void>;
}

export async function disposableDatabase(): Promise<DisposableDatabase> {
  const run = testDatabase();
  return run.embedded ? embeddedDatabase() : realDatabase(run.url);
}

async function realDatabase(runUrl: string): Promise<DisposableDatabase> {
  const name = `authsvc_faults_${randomBytes(5).toString("hex")}`;
  // Its own application_name, so killing the server's backends never kills this one.
  const admin = postgres(runUrl, {
    max: 1,
    onnotice: () => {},
    connection: { application_name: "fault-admin" },
  });
  await admin`create database ${admin(name)}`;
  const url = new URL(runUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    embedded: false,
    async takeDown() {
      await admin`alter database ${admin(name)} with allow_connections false`;
      const killed = await admin`
        select pg_terminate_backend(pid)
        from pg_stat_activity
        where datname = ${name}
          and application_name = 'authsvc'`;
      return killed.length;
    },
    async bringBack() {
      await admin`alter database ${admin(name)} with allow_connections true`;
    },
    async serverConnections() {
      const [row] = await admin<{ n: number }[]>`
        select count(*)::int as n
        from pg_stat_activity
        where datname = ${name}
          and application_name = 'authsvc'`;
      return row?.n ?? 0;
    },
    async drop() {
      await admin`drop database if exists ${admin(name)} with (force)`;
      await admin.end();
    },
  };
}

async function embeddedDatabase(): Promise<DisposableDatabase> {
  const dataDir = await mkdtemp(join(tmpdir(), "authsvc-faults-"));
  const db = await startEmbeddedPostgres({ dataDir });
  let resume = () => {};
  return {
    url: db.url,
    embedded: true,
    async takeDown() {
      const outage = db.interrupt();
      resume = outage.resume;
      return outage.dropped;
    },
    async bringBack() {
      resume();
    },
    async serverConnections() {
      return db.connections();
    },
    async drop() {
      await db.stop();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}
