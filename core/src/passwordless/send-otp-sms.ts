import type { Metadata } from "../accounts/index.js";
import { actorUsername, normalizePhone } from "../accounts/index.js";
import { failures } from "../failures.js";
import { err, Outbox, ok, type Result, transactionThenSend } from "../kernel/index.js";
import { undoCreationWith } from "../messaging/index.js";
import { messageChannel, resendSmsConfirmation } from "../verification/index.js";
import type { PasswordlessDeps, PasswordlessRepositories } from "./deps.js";
import { findOrCreatePasswordless, vetPasswordless } from "./steps/passwordless-user.js";

export interface SendSmsOtpInput {
  readonly phone: string;
  /** `user_metadata` of a user created by this request. */
  readonly data?: Metadata;
  /** Whether an unknown number is signed up (default true). */
  readonly createUser?: boolean;
  /** `sms` (the default) or `whatsapp`, which needs a gateway that speaks it (`settings.sms.whatsapp`). */
  readonly channel?: string;
}

type Deps = Pick<PasswordlessDeps, "store" | "clock" | "random" | "tokens" | "sms" | "settings">;

/**
 * Texts a one-time sign-in code (`POST /otp` with a phone), verified with `type: "sms"`. Like the
 * reference, the code is the user's confirmation token, so the same code also confirms a number
 * that was never confirmed. An unknown number is signed up without a password unless `createUser`
 * is false (422 `otp_disabled`, nothing created). At most one code per `SMS_MAX_FREQUENCY` per
 * number (429 `over_sms_send_rate_limit`). The code is texted once the change has committed; a
 * gateway refusal (`sms_send_failed`) removes the code again (a user it created stays, unconfirmed,
 * and asking again works). Answers the gateway's message id.
 */
export async function sendSmsOtp(deps: Deps, input: SendSmsOtpInput): Promise<Result<{ messageId: string }>> {
  const { signup } = deps.settings;
  if (!signup.phoneEnabled) return err(failures.phoneProviderUnsupported());
  const channel = messageChannel(deps.settings.sms, input.channel);
  if (!channel.ok) return channel;
  const phone = normalizePhone(input.phone);
  if (!phone.ok) return phone;
  const createUser = input.createUser ?? true;
  const now = deps.clock.now();

  const wanted = {
    channel: "phone" as const,
    address: phone.value,
    data: input.data ?? {},
    now,
    create: createUser && !signup.disabled,
  };
  const vetted = await vetPasswordless(deps, wanted);
  if (!vetted.ok) return vetted;
  const outbox = new Outbox<PasswordlessRepositories>();
  const sent = await transactionThenSend(deps.store, outbox, async (repos): Promise<Result<true>> => {
    const found = await findOrCreatePasswordless(deps, repos, { ...wanted, vetted: vetted.value });
    if (found === null) {
      return err(createUser ? failures.signupDisabled() : failures.otpSignupDisabled());
    }
    if (found.created) {
      undoCreationWith(outbox, found.user.id);
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
    const texted = await resendSmsConfirmation(deps, repos, user, now, outbox, channel.value);
    return texted.ok ? ok(true) : texted;
  });
  return sent.ok ? ok({ messageId: outbox.messageId }) : sent;
}
