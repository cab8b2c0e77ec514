import type { DeliveryQueue, Transactor } from "../kernel/index.js";
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
   * Send counters shared by all instances. Taken through the store itself (one atomic statement of its
   * own, after the change committed), never inside a use case's transaction: a row lock on a counter
   * every send shares must not last longer than that statement.
   */
  readonly quota: SendQuota;
}

export type VerificationStore = VerificationRepositories & Transactor<VerificationRepositories>;

/** The ports the verification use cases may use. */
export interface VerificationDeps extends Omit<SessionsDeps, "store"> {
  readonly store: VerificationStore;
  readonly mailer: Mailer;
  readonly sms: SmsSender;
  /** Where the mail of the endpoints that must not reveal an address's account goes after the answer. */
  readonly deliveries: DeliveryQueue;
}
