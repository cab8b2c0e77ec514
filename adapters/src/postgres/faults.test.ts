import { afterAll, describe, expect, it } from "vitest";
import { connectTestDatabase } from "../testing/database.js";
import { connectPostgres } from "./connect.js";
import { isDatabaseUnavailable } from "./faults.js";

const sql = connectTestDatabase({ maxPoolSize: 1 });
afterAll(() => sql.end());

async function thrownBy(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error("expected a rejection");
}

describe("isDatabaseUnavailable", () => {
  it("is true for a refused connection", async () => {
    const nowhere = connectPostgres({ url: "postgres://postgres@127.0.0.1:1/postgres", maxPoolSize: 1 });
    try {
      const error = await thrownBy(nowhere`select 1`);
      expect(error).toMatchObject({ code: "ECONNREFUSED" });
      expect(isDatabaseUnavailable(error)).toBe(true);
    } finally {
      await nowhere.end();
    }
  });

  it("is true for a server that ends the session, and for an error caused by one", () => {
    const terminated = Object.assign(new Error("terminating connection due to administrator command"), {
      name: "PostgresError",
      code: "57P01",
      severity: "FATAL",
    });
    expect(isDatabaseUnavailable(terminated)).toBe(true);
    expect(isDatabaseUnavailable(new Error("wrapped", { cause: terminated }))).toBe(true);
  });

  it("is true for a write refused by a read-only server (a standby during a failover)", async () => {
    const readOnly = await thrownBy(
      sql.begin("read only", (tx) => tx`create table faults_read_only (x int)`),
    );
    expect(readOnly).toMatchObject({ name: "PostgresError", code: "25006" });
    expect(isDatabaseUnavailable(readOnly)).toBe(true);
  });

  it("is false for a query the database refuses, and for anything else", async () => {
    const syntax = await thrownBy(sql`selec 1`);
    expect(syntax).toMatchObject({ name: "PostgresError", code: "42601" });
    expect(isDatabaseUnavailable(syntax)).toBe(false);
    const division = await thrownBy(sql`select 1 / 0`);
    expect(isDatabaseUnavailable(division)).toBe(false);
    expect(isDatabaseUnavailable(new TypeError("x is undefined"))).toBe(false);
    expect(isDatabaseUnavailable(null)).toBe(false);
    expect(isDatabaseUnavailable("ECONNRESET")).toBe(false);
  });
});
