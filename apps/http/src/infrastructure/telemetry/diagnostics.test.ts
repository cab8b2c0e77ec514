import { diag } from "@opentelemetry/api";
import { afterEach, describe, expect, it } from "vitest";
import { memoryLogger } from "../../testing/memory-log.js";
import { routeDiagnostics } from "./diagnostics.js";

afterEach(() => diag.disable());

describe("routeDiagnostics", () => {
  it("logs the SDK's errors at most once per 30 s, saying how many were left out", () => {
    const { logger, lines } = memoryLogger();
    let now = 0;
    routeDiagnostics(logger, false, () => now);
    diag.error("export failed", new Error("connect ECONNREFUSED 127.0.0.1:1"));
    diag.error("export failed");
    diag.warn("export failed");
    diag.debug("chatter");
    now = 30_001;
    diag.error("export failed");
    expect(lines().map((l) => [l.level, l.msg, l.suppressed])).toEqual([
      ["error", "export failed", undefined],
      ["error", "export failed", 2],
    ]);
    expect(lines()[0]?.detail).toBe("connect ECONNREFUSED 127.0.0.1:1");
  });

  it("with DEBUG=true lets everything through", () => {
    const { logger, lines } = memoryLogger("debug");
    routeDiagnostics(logger, true, () => 0);
    diag.error("one");
    diag.error("two");
    diag.debug("three");
    expect(lines().map((l) => l.msg)).toEqual(expect.arrayContaining(["one", "two", "three"]));
    expect(lines().filter((l) => l.msg === "one" || l.msg === "two")).toHaveLength(2);
  });
});
