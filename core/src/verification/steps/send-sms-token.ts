import type { User } from "../../accounts/index.js";
import { err, failures, ok, type Result } from "../../kernel/index.js";
import type { VerificationDeps, VerificationRepositories } from "../deps.js";
import type { OneTimeTokenType } from "../ports/one-time-tokens.js";

export interface SendSmsTokenInput {
  readonly user: User;
  readonly tokenType: OneTimeTokenType;
  /** E.164 digits without `+`: where the code goes and what it is bound to. */
  readonly phone: string;
  readonly now: Date;
}

/**
 * Creates a one-time SMS code for `user` (replacing their previous token of `tokenType`) and texts it
 * to `phone`. Only `hash(phone + code)` is stored; the link-token hash is random and unused for SMS.
 *
 * Call it inside the use case's transaction, after its writes: a gateway refusal rejects with an
 * `AuthError` (`sms_send_failed`) that the caller lets propagate, so the transaction rolls back.
 */
export async function sendSmsToken(
  deps: Pick<VerificationDeps, "random" | "tokens" | "sms" | "settings">,
  repos: VerificationRepositories,
  input: SendSmsTokenInput,
): Promise<Result<{ messageId: string }>> {
  // SMS cost money: an hourly cap over all instances (RATE_LIMIT_SMS_SENT), as for email.
  const allowed = await repos.quota.take("sms", deps.settings.sms.rateLimitPerHour, 3_600_000, input.now);
  if (!allowed) return err(failures.smsRateLimit());
  const otp = deps.random.digits(deps.settings.sms.otpLength);
  await repos.oneTimeTokens.put({
    id: deps.random.uuid(),
    userId: input.user.id,
    type: input.tokenType,
    tokenHash: deps.tokens.hash(deps.tokens.generate()),
    otpHash: deps.tokens.hash(input.phone + otp),
    relatesTo: input.phone,
    createdAt: input.now,
  });
  const { messageId } = await deps.sms.send(input.phone, `Your code is ${otp}`);
  return ok({ messageId });
}
