import { randomBytes } from "node:crypto";
import { inject } from "vitest";
import { connectPostgres, migrate, resolveMigrationsDir, type Sql } from "../index.js";

/** Which database global-setup chose for this run. */
export type DatabaseKind = "external" | "testcontainers" | "embedded";

declare module "vitest" {
  export interface ProvidedContext {
    databaseUrl: string;
    databaseKind: string;
  }
}

/** The run's database: its url, and whether it is our embedded PGlite server (one shared backend). */
export function testDatabase(): { url: string; kind: DatabaseKind; embedded: boolean } {
  const kind = inject("databaseKind") as DatabaseKind;
  return { url: inject("databaseUrl"), kind, embedded: kind === "embedded" };
}

/** A new pool on the run's database, configured as the server would configure it. Caller ends it. */
export function connectTestDatabase(options: { maxPoolSize?: number } = {}): Sql {
  const { url, embedded } = testDatabase();
  return connectPostgres({ url, maxPoolSize: options.maxPoolSize ?? 4, embedded });
}

export interface FreshNamespace {
  /** A pool of its own (4 connections unless told otherwise). */
  sql: Sql;
  /** A schema name no other test uses, e.g. t_3f9c0a1b2d4e; not created yet (migrate creates it). */
  namespace: string;
  url: string;
  /** Drops the schema (cascade) and ends the pool. */
  drop(): Promise<void>;
}

/**
 * A unique namespace on the shared test database, so that test files running in parallel never see
 * each other's tables. The caller migrates it (see {@link migratedNamespace}) or not.
 */
export async function freshNamespace(options: { maxPoolSize?: number } = {}): Promise<FreshNamespace> {
  const sql = connectTestDatabase(options);
  const namespace = `t_${randomBytes(6).toString("hex")}`;
  return {
    sql,
    namespace,
    url: testDatabase().url,
    async drop() {
      try {
        await sql`drop schema if exists ${sql(namespace)} cascade`;
      } finally {
        await sql.end();
      }
    },
  };
}

/** {@link freshNamespace} with every migration applied: what contract suites start from. */
export async function migratedNamespace(options: { maxPoolSize?: number } = {}): Promise<FreshNamespace> {
  const ns = await freshNamespace(options);
  await migrate(ns.sql, { namespace: ns.namespace, migrationsDir: resolveMigrationsDir() });
  return ns;
}
