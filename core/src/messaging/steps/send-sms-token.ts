import type { User } from "../../accounts/index.js";
import { failures } from "../../failures.js";
import { type Outbox, ok, type Result } from "../../kernel/index.js";
import type { MessagingDeps, MessagingRepositories } from "../deps.js";
import type { OneTimeTokenType } from "../ports/one-time-tokens.js";
import type { SmsChannel } from "../ports/sms-sender.js";
import { testOtpFor } from "./test-otp.js";
import { undoMessage } from "./undo-message.js";

/** The message id answered for a test number's code, which no gateway sends (the reference's). */
export const TEST_OTP_MESSAGE_ID = "test-otp";

export interface SendSmsTokenInput<R extends MessagingRepositories = MessagingRepositories> {
  readonly user: User;
  readonly tokenType: OneTimeTokenType;
  /** E.164 digits without `+`: where the code goes and what it is bound to. */
  readonly phone: string;
  readonly now: Date;
  /** Where the text waits until the transaction has committed (`transactionThenSend`). */
  readonly outbox: Outbox<R>;
  /** `whatsapp` sends the code by WhatsApp; a text message otherwise. */
  readonly channel?: SmsChannel | undefined;
}

/**
 * Creates a one-time SMS code for `user` (replacing their previous token of `tokenType`) and leaves
 * its text to `phone` in `input.outbox`, sent once the caller's transaction has committed
 * (`transactionThenSend`, whose outbox then holds the gateway's message id). Only
 * `hash(phone + code)` is stored; the link-token hash is random and unused for SMS. SMS cost money:
 * an hourly cap over all instances (`RATE_LIMIT_SMS_SENT`, 429 `over_sms_send_rate_limit`) is taken
 * before the send. A refusal or a gateway error (`sms_send_failed`) removes the token again.
 *
 * A test number (`SMS_TEST_OTP`) gets its fixed code instead of a random one, stored the same way;
 * nothing is sent (no gateway, no send-SMS hook) and the hourly cap is not taken. The per-user
 * frequency check, the caller's, applies as to any number.
 */
export async function sendSmsToken<R extends MessagingRepositories>(
  deps: Pick<MessagingDeps, "store" | "random" | "tokens" | "sms" | "settings">,
  repos: R,
  input: SendSmsTokenInput<R>,
): Promise<Result<Record<never, never>>> {
  const fixed = testOtpFor(deps.settings.sms, input.phone, input.now);
  const otp = fixed ?? deps.random.digits(deps.settings.sms.otpLength);
  const tokenId = deps.random.uuid();
  await repos.oneTimeTokens.put({
    id: tokenId,
    userId: input.user.id,
    type: input.tokenType,
    tokenHash: deps.tokens.hash(deps.tokens.generate()),
    otpHash: deps.tokens.hash(input.phone + otp),
    relatesTo: input.phone,
    createdAt: input.now,
  });
  const undo = (repos: MessagingRepositories) =>
    undoMessage(repos, { userId: input.user.id, tokenId, tokenType: input.tokenType, sentAt: input.now });
  if (fixed !== null) {
    input.outbox.add({ send: async () => TEST_OTP_MESSAGE_ID, undo });
    return ok({});
  }
  input.outbox.add({
    reserve: async () => {
      const { rateLimitPerHour } = deps.settings.sms;
      const allowed = await deps.store.quota.take("sms", rateLimitPerHour, 3_600_000, input.now);
      return allowed ? null : failures.smsRateLimit();
    },
    send: async () =>
      (
        await deps.sms.send(input.phone, `Your code is ${otp}`, {
          otp,
          user: input.user,
          ...(input.channel === "whatsapp" ? { channel: input.channel } : {}),
        })
      ).messageId,
    undo,
  });
  return ok({});
}
