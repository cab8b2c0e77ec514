import { afterAll, describe, expect, it } from "vitest";
import { testDatabase } from "../testing/database.js";
import { connectPostgres } from "./connect.js";

/**
 * A URL naming several hosts (a primary and its replica, docs/operations.md) with
 * target_session_attrs=read-write, as postgres.js with patches/postgres+3.4.9.patch takes it: a
 * connection goes to the first host that accepts writes, whichever host its turn starts at, and when
 * none does the statement fails at once as the database being unavailable, never waits.
 */
const db = testDatabase();
const target = new URL(db.url);
/** A loopback port nothing listens on: a dead primary. */
const DEAD = "127.0.0.1:1";
const alive = `${target.hostname}:${target.port || "5432"}`;
const withHosts = (hosts: string[], options: Record<string, string> = {}) => {
  const url = new URL(db.url);
  const query = new URLSearchParams({ ...Object.fromEntries(url.searchParams), ...options });
  return `${url.protocol}//${url.username ? `${url.username}${url.password ? `:${url.password}` : ""}@` : ""}${hosts.join(",")}${url.pathname}?${query}`;
};
const pools: ReturnType<typeof connectPostgres>[] = [];
afterAll(() => Promise.all(pools.map((pool) => pool.end())));

describe.skipIf(db.embedded)("a URL naming several hosts", () => {
  it("answers every statement from the host accepting writes, across reconnections", async () => {
    const sql = connectPostgres({
      url: withHosts([DEAD, alive], { target_session_attrs: "read-write" }),
      maxPoolSize: 1,
      applicationName: "connect-hosts",
    });
    pools.push(sql);
    // Each reconnection of the one connection starts at the next host in turn: half of them at the
    // dead one, which must not fail the statement.
    for (let i = 0; i < 4; i++) {
      const [row] = await sql<{ ok: number }[]>`select 1 as ok`;
      expect(row?.ok).toBe(1);
      await sql`select pg_terminate_backend(pg_backend_pid())`.catch(() => {});
    }
  });

  it("fails at once, as unavailable, when no host accepts writes", async () => {
    const sql = connectPostgres({
      // The live server made read-only for this pool's sessions: a standby, as the driver sees it.
      url: withHosts([DEAD, alive], {
        target_session_attrs: "read-write",
        options: "-c default_transaction_read_only=on",
      }),
      maxPoolSize: 1,
    });
    pools.push(sql);
    const started = performance.now();
    await expect(sql`select 1`).rejects.toMatchObject({ code: "CONNECTION_CLOSED" });
    expect(performance.now() - started).toBeLessThan(5_000);
  });
});
