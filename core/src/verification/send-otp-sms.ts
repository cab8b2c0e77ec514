import type { Metadata } from "../accounts/index.js";
import { actorUsername, normalizePhone } from "../accounts/index.js";
import { err, failures, ok, type Result, transactionRollingBackOn } from "../kernel/index.js";
import type { VerificationDeps } from "./deps.js";
import { resendSmsConfirmation } from "./steps/confirmation.js";
import { findOrCreatePasswordless } from "./steps/passwordless-user.js";

export interface SendSmsOtpInput {
  readonly phone: string;
  /** `user_metadata` of a user created by this request. */
  readonly data?: Metadata;
  /** Whether an unknown number is signed up (default true). */
  readonly createUser?: boolean;
  /** Only `sms` is offered (no gateway here speaks WhatsApp). */
  readonly channel?: string;
}

type Deps = Pick<VerificationDeps, "store" | "clock" | "random" | "tokens" | "sms" | "settings">;

/**
 * Texts a one-time sign-in code (`POST /otp` with a phone), verified with `type: "sms"`. Like the
 * reference, the code is the user's confirmation token, so the same code also confirms a number
 * that was never confirmed. An unknown number is signed up without a password unless `createUser`
 * is false (422 `otp_disabled`, nothing created). At most one code per `SMS_MAX_FREQUENCY` per
 * number (429 `over_sms_send_rate_limit`); a gateway refusal (`sms_send_failed`) rolls back
 * everything, the new user included. Answers the gateway's message id.
 */
export async function sendSmsOtp(deps: Deps, input: SendSmsOtpInput): Promise<Result<{ messageId: string }>> {
  const { signup } = deps.settings;
  if (!signup.phoneEnabled) return err(failures.phoneProviderUnsupported());
  if (input.channel !== undefined && input.channel !== "sms") {
    return err(failures.smsChannelUnsupported());
  }
  const phone = normalizePhone(input.phone);
  if (!phone.ok) return phone;
  const createUser = input.createUser ?? true;
  const now = deps.clock.now();

  return transactionRollingBackOn(deps.store, async (repos): Promise<Result<{ messageId: string }>> => {
    const found = await findOrCreatePasswordless(deps, repos, {
      channel: "phone",
      address: phone.value,
      data: input.data ?? {},
      now,
      create: createUser && !signup.disabled,
    });
    if (found === null) {
      return err(createUser ? failures.signupDisabled() : failures.otpSignupDisabled());
    }
    if (found.created) {
      await repos.audit.record({
        // The sign-up is done (`user_signedup`) when the code is verified.
        action: "user_confirmation_requested",
        actorId: found.user.id,
        actorUsername: actorUsername(found.user),
        traits: { provider: "phone" },
        at: now,
      });
    }
    let user = found.user;
    // Pre-account takeover: a password set on a number nobody has proven yet belongs to whoever
    // signed up with it, not necessarily to the phone's owner, who is now asking for a code. The code
    // is the proof; the unproven password goes (the owner can set one once signed in).
    if (user.phoneConfirmedAt === null && user.encryptedPassword !== null) {
      user = { ...user, encryptedPassword: null, updatedAt: now };
      await repos.users.update(user);
      await repos.sessions.deleteForUser(user.id);
    }
    const sent = await resendSmsConfirmation(deps, repos, user, now);
    return sent.ok ? ok({ messageId: sent.value.messageId }) : sent;
  });
}
