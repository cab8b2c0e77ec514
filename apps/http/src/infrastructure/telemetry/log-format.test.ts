import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { logFormat } from "./log-format.js";
import { createLogger, REDACTED } from "./logger.js";

const dir = mkdtempSync(join(tmpdir(), "authsvc-log-format-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("the log format", () => {
  it("is pretty for a terminal, JSON for a pipe or a file, unless configured", () => {
    expect(logFormat({}, true)).toBe("pretty");
    expect(logFormat({}, false)).toBe("json");
    expect(logFormat({ file: "/var/log/authsvc.log" }, true)).toBe("json");
    expect(logFormat({ format: "json" }, true)).toBe("json");
    expect(logFormat({ format: "pretty" }, false)).toBe("pretty");
  });

  it("pretty: level, time, message on one line, then each field; secrets still redacted", () => {
    const file = join(dir, "pretty.log");
    const logger = createLogger({ level: "info", file, format: "pretty" });
    logger.warn({ user_id: "u1", body: { password: "hunter2hunter2" } }, "sign-in refused");
    logger.info(
      "token was eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9Pl",
    );
    logger.flush();
    const text = readFileSync(file, "utf8");
    expect(text).not.toContain("hunter2hunter2");
    expect(text).not.toContain("eyJzdWIiOiIxMjM0NTY3ODkwIn0");
    expect(text).not.toContain("\u001b["); // no colours in a file
    const lines = text.split("\n");
    expect(lines[0]).toMatch(/^WARN: \d\d:\d\d:\d\d\.\d{3} sign-in refused$/);
    expect(lines.slice(1, 5)).toEqual([
      '    user_id: "u1"',
      "    body: {",
      `      "password": "${REDACTED}"`,
      "    }",
    ]);
    expect(lines[5]).toMatch(/^INFO: \d\d:\d\d:\d\d\.\d{3} token was \[REDACTED\]$/);
  });

  it("json: one object per line, as before", () => {
    const file = join(dir, "json.log");
    const logger = createLogger({ level: "info", file, format: "json" });
    logger.info({ user_id: "u1" }, "hello");
    logger.flush();
    const [line] = readFileSync(file, "utf8").trim().split("\n");
    expect(JSON.parse(line ?? "")).toMatchObject({ level: "info", msg: "hello", user_id: "u1" });
  });
});
