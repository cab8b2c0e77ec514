import { type Outbox, ok, type Result, type Transactor, transactionThenSend } from "../../kernel/index.js";

/**
 * `transactionThenSend` for the external sign-in steps, whose refusals are returned so that their
 * changes commit (`provider_email_needs_verification` comes with a confirmation mail): such a refusal
 * still sends the mail it left in `outbox` once the transaction has committed. A send that fails (or
 * the hourly cap) is answered instead, its message undone; an error thrown inside rolls everything back.
 */
export async function commitThenSend<R extends V, V, T>(
  store: Transactor<R>,
  outbox: Outbox<V>,
  fn: (repos: R) => Promise<Result<T>>,
): Promise<Result<T>> {
  // The outbox's compensations need only the repositories of `V`, which every `R` has.
  const settled = await transactionThenSend<R, Result<T>>(
    store,
    outbox as unknown as Outbox<R>,
    async (repos) => ok(await fn(repos)),
  );
  return settled.ok ? settled.value : settled;
}
