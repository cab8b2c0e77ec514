import { Outbox, type Result, transactionThenSend } from "../../kernel/index.js";
import type { VerificationRepositories, VerificationStore } from "../../verification/deps.js";

/**
 * Runs `fn` as a use case does: in a transaction whose messages go out once it has committed
 * (`transactionThenSend`). Answers `fn`'s result (or the send's failure) and the outbox, whose
 * `messageId` holds what an SMS gateway answered.
 */
export async function sending<T>(
  deps: { store: VerificationStore },
  fn: (repos: VerificationRepositories, outbox: Outbox<VerificationRepositories>) => Promise<Result<T>>,
): Promise<Result<T> & { outbox: Outbox<VerificationRepositories> }> {
  const outbox = new Outbox<VerificationRepositories>();
  const result = await transactionThenSend(deps.store, outbox, (repos) => fn(repos, outbox));
  return { ...result, outbox };
}
