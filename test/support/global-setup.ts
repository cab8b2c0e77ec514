import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startEmbeddedPostgres } from "@authsvc/adapters";
import type { DatabaseKind } from "@authsvc/adapters/testing";
import type { TestProject } from "vitest/node";

/**
 * Chooses the one database the whole run uses (README.md, "Tests"):
 * TEST_DATABASE_URL → a Testcontainers PostgreSQL when a container runtime answers → embedded PGlite.
 * Tests never skip for lack of a database. Test files isolate themselves with freshNamespace().
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const db = await startTestDatabase();
  console.log(`[test database] ${db.kind}: ${redact(db.url)}`);
  project.provide("databaseUrl", db.url);
  project.provide("databaseKind", db.kind);
  return db.stop;
}

interface TestDatabase {
  kind: DatabaseKind;
  url: string;
  stop(): Promise<void>;
}

async function startTestDatabase(): Promise<TestDatabase> {
  const url = process.env.TEST_DATABASE_URL;
  if (url) return { kind: "external", url, stop: async () => {} };
  return (await startContainer()) ?? (await startEmbedded());
}

/** null when no container runtime answers quickly, or the container cannot start. */
async function startContainer(): Promise<TestDatabase | null> {
  const { GenericContainer, Wait, getContainerRuntimeClient } = await import("testcontainers");
  try {
    await withTimeout(getContainerRuntimeClient(), 5_000);
  } catch {
    return null;
  }
  try {
    const container = await new GenericContainer("postgres:16-alpine")
      .withEnvironment({ POSTGRES_PASSWORD: "postgres" })
      // Durability is irrelevant for a throw-away test database; parallel test files need connections.
      .withCommand(["postgres", "-c", "fsync=off", "-c", "max_connections=300"])
      .withTmpFs({ "/var/lib/postgresql/data": "rw" })
      .withExposedPorts(5432)
      // The official image restarts the server once after initdb: the second message is the real one.
      .withWaitStrategy(Wait.forLogMessage(/database system is ready to accept connections/, 2))
      .start();
    return {
      kind: "testcontainers",
      url: `postgres://postgres:postgres@${container.getHost()}:${container.getMappedPort(5432)}/postgres`,
      stop: async () => {
        await container.stop();
      },
    };
  } catch (error) {
    console.log(`[test database] container runtime found but postgres:16-alpine failed: ${error}`);
    return null;
  }
}

async function startEmbedded(): Promise<TestDatabase> {
  const dataDir = await mkdtemp(join(tmpdir(), "authsvc-test-db-"));
  const server = await startEmbeddedPostgres({ dataDir });
  return {
    kind: "embedded",
    url: server.url,
    stop: async () => {
      await server.stop();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`timed out after ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

function redact(url: string): string {
  return url.replace(/\/\/([^:/@]+):[^@]*@/, "//$1:***@");
}
