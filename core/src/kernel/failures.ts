import { AuthError, type ErrorCode } from "./errors.js";

/**
 * A slice's failures (its `failures.ts`): each once, with its `error_code` and its message (the
 * reference's wording), fixed or built from the arguments its constructor takes. `core/src/failures.ts`
 * composes every slice's into the one catalogue call sites use (`failures.userBanned()`); none spells a
 * message. The HTTP status is not core's business: `apps/http` chooses it from the code, with an
 * override for the few failures where the reference answers another status for that code.
 */
export type FailureCatalogue = Readonly<
  Record<string, readonly [ErrorCode, string | ((...args: never[]) => string)]>
>;

/** The failures of no slice in particular: faults and storage. */
export const kernelFailures = {
  // Faults and storage
  unexpectedFailure: [
    "unexpected_failure",
    "Unexpected failure, please check server logs for more information",
  ],
  unstorableValue: ["validation_failed", "The request contains a value that cannot be stored"],
  databaseUnavailable: ["unexpected_failure", "Database unavailable, please retry after a moment"],
} as const satisfies FailureCatalogue;

/** Refuses catalogues that define one name twice: a spread would keep the last silently. */
export function assertNamedOnce(catalogues: readonly FailureCatalogue[]): void {
  const names = catalogues.flatMap((catalogue) => Object.keys(catalogue));
  const twice = names.filter((name, i) => names.indexOf(name) !== i);
  if (twice.length > 0) throw new Error(`failures: defined twice: ${[...new Set(twice)].join(", ")}`);
}

type Args<M> = M extends (...args: infer A) => string ? A : [];

/** One named constructor per failure of `C`. */
export type FailureConstructors<C extends FailureCatalogue> = {
  readonly [N in keyof C]: (...args: Args<C[N][1]>) => AuthError;
};

/** The named constructors of `catalogue`: each builds its failure's `AuthError`, named after it. */
export function failureConstructors<C extends FailureCatalogue>(catalogue: C): FailureConstructors<C> {
  return Object.fromEntries(
    Object.entries(catalogue).map(([name, [code, message]]) => [
      name,
      (...args: unknown[]) =>
        new AuthError(
          code,
          typeof message === "function" ? (message as (...a: unknown[]) => string)(...args) : message,
          undefined,
          name,
        ),
    ]),
  ) as unknown as FailureConstructors<C>;
}
