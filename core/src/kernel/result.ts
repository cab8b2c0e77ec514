import type { AuthError } from "./errors.js";

/** The outcome of a use case: expected failures are values, faults are thrown. */
export type Result<T, E = AuthError> =
  | { readonly ok: true; readonly value: T }
  | { readonly ok: false; readonly error: E };

export const ok = <T>(value: T): Result<T, never> => ({ ok: true, value });
export const err = <E>(error: E): Result<never, E> => ({ ok: false, error });
