import { Writable } from "node:stream";
import type { Logger } from "pino";
import { createLogger, type LogLevel } from "../infrastructure/telemetry/logger.js";

/** A logger whose JSON lines are kept in memory, for assertions on what was logged. */
export function memoryLogger(level: LogLevel = "debug"): {
  logger: Logger;
  lines: () => Record<string, unknown>[];
  text: () => string;
} {
  const chunks: string[] = [];
  const destination = new Writable({
    write(chunk, _encoding, done) {
      chunks.push(String(chunk));
      done();
    },
  });
  const logger = createLogger({ level, destination });
  const text = () => chunks.join("");
  const lines = () =>
    text()
      .split("\n")
      .filter((line) => line.trim() !== "")
      .map((line) => JSON.parse(line) as Record<string, unknown>);
  return { logger, lines, text };
}
