import { type DestinationStream, type Logger, pino } from "pino";
import { type LogFormat, logFormat, prettyDestination } from "./log-format.js";
import { maskUrlPasswords } from "./url-password.js";

/** The reference's log levels; pino has no `panic`, which logs as `fatal`. */
export type LogLevel = "panic" | "fatal" | "error" | "warn" | "info" | "debug";

/**
 * Keys whose values never reach a log line. Matching is by name, case-insensitive, at any depth, so a
 * secret nested in an error, a request body or a config object is caught as well.
 */
const SECRET_KEY =
  /pass(word)?|secret|token|otp|nonce|authorization|cookie|api_?key|apikey|access_?key|code_verifier|hash|credential|private|^code$|^key$|jwt|database_?url|dsn/i;

export const REDACTED = "[REDACTED]";

// JWTs inside free text (messages, error strings); URL passwords are maskUrlPasswords'.
const JWT_IN_TEXT = /\beyJ[\w-]{5,}\.[\w-]{5,}\.[\w-]{5,}/g;

/** Scrubs secret-looking substrings from free text. */
export function scrubText(text: string): string {
  return maskUrlPasswords(text.replace(JWT_IN_TEXT, REDACTED), REDACTED);
}

/** Returns a copy of `value` with every secret-named key replaced by `[REDACTED]`. */
export function redact(value: unknown, depth = 0): unknown {
  if (depth > 8) return "[Depth]";
  if (typeof value === "string") return scrubText(value);
  if (value === null || typeof value !== "object") return value;
  if (value instanceof Error) {
    // Only what diagnoses a fault: a database error's detail/where would quote row data (hashes,
    // metadata). A SQLSTATE-like code is kept, although `code` is otherwise a secret-looking key.
    const { code, constraint_name, routine, cause } = value as Error & Record<string, unknown>;
    const kept = {
      type: value.name,
      message: scrubText(value.message),
      stack: value.stack === undefined ? undefined : scrubText(value.stack),
      sqlstate: typeof code === "string" && /^[0-9A-Z]{5}$/.test(code) ? code : undefined,
      constraint_name,
      routine,
      cause: cause === undefined ? undefined : redact(cause, depth + 1),
    };
    return kept;
  }
  if (Array.isArray(value)) return value.map((item) => redact(item, depth + 1));
  const out: Record<string, unknown> = {};
  for (const [key, inner] of Object.entries(value)) {
    out[key] =
      SECRET_KEY.test(key) && inner !== undefined && inner !== null ? REDACTED : redact(inner, depth + 1);
  }
  return out;
}

export interface LoggerOptions {
  readonly level: LogLevel;
  /** `LOG_FILE`: append the lines there instead of standard output. */
  readonly file?: string | undefined;
  /** `LOG_FORMAT`; undefined: `pretty` on a terminal, else `json` (log-format.ts). */
  readonly format?: LogFormat | undefined;
  /** For tests: where the lines go. */
  readonly destination?: DestinationStream;
}

/**
 * JSON lines through pino, pretty-printed for a person (`format`). Every object logged passes through `redact`, and every message through
 * `scrubText`, so a careless `log.info({ body })` cannot leak a password, token or OTP.
 */
export function createLogger(options: LoggerOptions): Logger {
  // Synchronous writes: an asynchronous SonicBoom answers flush() before its write in flight lands,
  // so the last lines before exit (shutting down, stopped) could be reordered or lost.
  const destination =
    options.destination ??
    (logFormat(options) === "pretty"
      ? prettyDestination(options.file)
      : pino.destination(
          options.file ? { dest: options.file, mkdir: true, sync: true } : { dest: 1, sync: true },
        ));
  return pino(
    {
      level: options.level === "panic" ? "fatal" : options.level,
      base: { component: "authsvc" },
      timestamp: pino.stdTimeFunctions.isoTime,
      messageKey: "msg",
      formatters: {
        level: (label) => ({ level: label }),
        log: (object) => redact(object) as Record<string, unknown>,
      },
      hooks: {
        logMethod(args, method) {
          const scrubbed = args.map((arg) => (typeof arg === "string" ? scrubText(arg) : arg));
          method.apply(this, scrubbed as Parameters<typeof method>);
        },
      },
      // Errors are turned into plain objects by `redact`, so pino's serializer must not run first.
      serializers: { err: (e: unknown) => e },
    },
    destination,
  );
}

/**
 * Writes one line that bypasses redaction. Used by the embedded development mode only: to print the
 * `anon` and `service_role` keys signed with the development secret (a newcomer needs them, and they
 * are worthless outside that throwaway database), and, at debug level, the embedded database's
 * password of this start.
 */
export function logUnredacted(
  logger: Logger,
  fields: Record<string, unknown>,
  msg: string,
  level: "info" | "debug" = "info",
): void {
  if (!logger.isLevelEnabled(level)) return;
  const stream = (logger as unknown as Record<symbol, DestinationStream>)[pino.symbols.streamSym];
  const line = { level, time: new Date().toISOString(), component: "authsvc", ...fields, msg };
  stream?.write(`${JSON.stringify(line)}\n`);
}
