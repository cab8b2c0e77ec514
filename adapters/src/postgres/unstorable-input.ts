import { failures } from "@authsvc/core";
import type { AuthError } from "@authsvc/core/kernel";

/** SQLSTATEs of unstorable input: 22P05, 22021 (bad text), 22001 (too long), 54001 (too deep). */
const UNSTORABLE_INPUT = new Set(["22P05", "22021", "22001", "54001"]);

/**
 * The failure a database error stands for when the input itself could not be stored (NUL bytes,
 * broken UTF-16, a value longer than its column, JSON nested too deep): the client's fault, so a
 * `validation_failed`, never the database's own message. Null for any other error (a fault).
 */
export function unstorableInput(thrown: unknown): AuthError | null {
  const error = thrown as { name?: unknown; code?: unknown } | null;
  if (error?.name !== "PostgresError" || typeof error.code !== "string") return null;
  return UNSTORABLE_INPUT.has(error.code) ? failures.unstorableValue() : null;
}

/**
 * The repository with every method rethrowing unstorable-input errors as that failure (thrown, so a
 * surrounding transaction still rolls back); other errors pass unchanged.
 */
export function rejectingUnstorableInput<R extends object>(repository: R): R {
  const wrapped: Record<string, unknown> = {};
  for (const [name, member] of Object.entries(repository)) {
    wrapped[name] =
      typeof member === "function"
        ? async (...args: unknown[]) => {
            try {
              return await member.apply(repository, args);
            } catch (thrown) {
              throw unstorableInput(thrown) ?? thrown;
            }
          }
        : member;
  }
  return wrapped as R;
}
