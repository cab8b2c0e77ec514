import { EventEmitter } from "node:events";
import { describe, expect, it } from "vitest";
import { memoryLogger } from "../../testing/memory-log.js";
import { guardAgainstDatabaseFaults } from "./fault-guard.js";

function guarded() {
  const proc = new EventEmitter();
  const log = memoryLogger();
  const exits: number[] = [];
  guardAgainstDatabaseFaults(proc, log.logger, (code) => exits.push(code));
  return { proc, log, exits };
}

describe("guardAgainstDatabaseFaults", () => {
  it("logs a lost database connection and keeps the process running", () => {
    const { proc, log, exits } = guarded();
    const closed = Object.assign(new Error("write CONNECTION_CLOSED 127.0.0.1:5432"), {
      code: "CONNECTION_CLOSED",
    });
    proc.emit("uncaughtException", closed);
    proc.emit(
      "unhandledRejection",
      Object.assign(new Error("connect ECONNREFUSED"), { code: "ECONNREFUSED" }),
    );
    expect(exits).toEqual([]);
    expect(log.lines().map((l) => [l.level, l.origin])).toEqual([
      ["error", "uncaughtException"],
      ["error", "unhandledRejection"],
    ]);
  });

  it("still ends the process on any other error, after logging it", async () => {
    const { proc, log, exits } = guarded();
    proc.emit("uncaughtException", new TypeError("Cannot read properties of null (reading 'write')"));
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(exits).toEqual([1]);
    expect(log.lines()[0]).toMatchObject({ level: "fatal", msg: "unexpected error, exiting" });
  });
});
