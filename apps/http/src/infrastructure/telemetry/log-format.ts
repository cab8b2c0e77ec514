import { createRequire } from "node:module";
import type { DestinationStream } from "pino";
import type Pretty from "pino-pretty";
import type { LogFormat } from "./section.js";

export type { LogFormat };

/**
 * The format of this process's log: the configured one, else `pretty` when a person watches
 * (standard output is a terminal and the log goes there), else `json` for whatever collects it.
 */
export function logFormat(
  log: { readonly format?: LogFormat | undefined; readonly file?: string | undefined },
  stdoutIsTerminal: boolean = process.stdout.isTTY === true,
): LogFormat {
  if (log.format !== undefined) return log.format;
  return stdoutIsTerminal && log.file === undefined ? "pretty" : "json";
}

/**
 * A pino-pretty stream: `LEVEL: HH:MM:ss.mmm message`, then each field on its own line. It receives
 * the JSON lines pino writes, after redaction, so it shows nothing the JSON would not. Synchronous,
 * as the JSON destination, so the last lines before exit are not lost.
 */
export function prettyDestination(file: string | undefined): DestinationStream {
  // Required here, not imported at the top: a server logging JSON (the default off a terminal) never
  // loads pino-pretty and its colouring.
  const pretty = createRequire(import.meta.url)("pino-pretty") as typeof Pretty;
  return pretty({
    destination: file ?? 1,
    mkdir: true,
    sync: true,
    // Colours only for a terminal; a file or a pipe gets plain text.
    colorize: file === undefined && process.stdout.isTTY === true,
    ignore: "time,component",
    messageKey: "msg",
    messageFormat: (log, messageKey) => `${clockTime(log.time)} ${String(log[messageKey] ?? "")}`,
  });
}

/** `2026-11-26T23:45:01.123Z` → `23:45:01.123` (UTC, as the JSON lines). */
function clockTime(time: unknown): string {
  return typeof time === "string" && time.length >= 23 ? time.slice(11, 23) : String(time ?? "");
}
