import type { Transactor } from "../kernel/index.js";
import type { PkceRepositories } from "../pkce/index.js";
import type { SessionsDeps } from "../sessions/index.js";
import type { Mailer } from "./ports/mailer.js";
import type { OneTimeTokenStore } from "./ports/one-time-tokens.js";
import type { SendQuota } from "./ports/send-quota.js";
import type { SmsSender } from "./ports/sms-sender.js";

/** The repositories verification uses: the sessions', PKCE flow states, one-time tokens and send counters. */
export interface VerificationRepositories extends PkceRepositories {
  readonly oneTimeTokens: OneTimeTokenStore;
  /**
   * Send counters shared by all instances. Bound to the transaction like the rest: a count taken by a
   * request whose change rolls back is rolled back too, and no request ever needs a second connection.
   */
  readonly quota: SendQuota;
}

export type VerificationStore = VerificationRepositories & Transactor<VerificationRepositories>;

/** The ports the verification use cases may use. */
export interface VerificationDeps extends Omit<SessionsDeps, "store"> {
  readonly store: VerificationStore;
  readonly mailer: Mailer;
  readonly sms: SmsSender;
}
