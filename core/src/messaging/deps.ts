import type { UserRepository } from "../accounts/index.js";
import type { KernelDeps, Transactor } from "../kernel/index.js";
import type { FlowStateStore } from "../pkce/index.js";
import type { Mailer } from "./ports/mailer.js";
import type { OneTimeTokenStore } from "./ports/one-time-tokens.js";
import type { SendQuota } from "./ports/send-quota.js";
import type { SmsSender } from "./ports/sms-sender.js";

/**
 * The repositories sending a one-time token uses: the tokens and send counters, the users whose
 * sent-at stamps an undone message clears, and the PKCE flow state a link may start.
 */
export interface MessagingRepositories {
  readonly users: UserRepository;
  readonly flowStates: FlowStateStore;
  readonly oneTimeTokens: OneTimeTokenStore;
  /**
   * Send counters shared by all instances. Taken through the store itself (one atomic statement of its
   * own, after the change committed), never inside a use case's transaction: a row lock on a counter
   * every send shares must not last longer than that statement.
   */
  readonly quota: SendQuota;
}

export type MessagingStore = MessagingRepositories & Transactor<MessagingRepositories>;

/** The ports sending mail and SMS uses. */
export interface MessagingDeps extends KernelDeps {
  readonly store: MessagingStore;
  readonly mailer: Mailer;
  readonly sms: SmsSender;
}
