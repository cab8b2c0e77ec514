import type { User } from "../../accounts/index.js";
import { failures } from "../../failures.js";
import { err, type Outbox, ok, orRollback, type Result } from "../../kernel/index.js";
import { type SmsChannel, sendEmailToken, sendSmsToken, tooSoon } from "../../messaging/index.js";
import type { PkceChallenge } from "../../pkce/index.js";
import type { VerificationDeps, VerificationRepositories } from "../deps.js";

type EmailDeps = Pick<VerificationDeps, "store" | "clock" | "random" | "tokens" | "mailer" | "settings">;

/**
 * Mails an unconfirmed user (read with `lock`) a new confirmation link and code, at most once per
 * `SMTP_MAX_FREQUENCY` (429 `over_email_send_rate_limit` before that, nothing written), and records
 * `confirmation_sent_at`. A magic-link request for an unconfirmed address goes through here too
 * (`magic_link` mail, `magiclink` link type): the link confirms the address as it signs in.
 *
 * The mail waits in `options.outbox` until the caller's transaction has committed (`transactionThenSend`).
 */
export async function resendEmailConfirmation(
  deps: EmailDeps,
  repos: VerificationRepositories,
  user: User,
  options: {
    redirectTo: string;
    now: Date;
    magicLink?: boolean;
    pkce?: PkceChallenge | null | undefined;
    outbox: Outbox<VerificationRepositories>;
  },
): Promise<Result<User>> {
  const { now } = options;
  if (user.email === null) throw new Error(`resendEmailConfirmation: user ${user.id} has no email`);
  const refused = tooSoon(user.confirmationSentAt, deps.settings.mailer.maxFrequency, now, "email");
  if (refused) return err(refused);
  const updated: User = { ...user, confirmationSentAt: now };
  await repos.users.update(updated);
  orRollback(
    await sendEmailToken(deps, repos, {
      user: updated,
      tokenType: "confirmation_token",
      mailKind: options.magicLink ? "magic_link" : "confirmation",
      verifyType: options.magicLink ? "magiclink" : "signup",
      to: user.email,
      redirectTo: options.redirectTo,
      pkce: options.pkce,
      now,
      outbox: options.outbox,
    }),
  );
  return ok(updated);
}

/**
 * Texts a user (read with `lock`) a new phone confirmation code, at most once per `SMS_MAX_FREQUENCY`
 * (429 `over_sms_send_rate_limit`, nothing written), and records `confirmation_sent_at`. Serves both
 * the phone sign-up confirmation and the SMS one-time login code, which the reference also keeps
 * as the confirmation token. The text waits in `outbox` (`transactionThenSend`).
 */
export async function resendSmsConfirmation(
  deps: Pick<VerificationDeps, "store" | "random" | "tokens" | "sms" | "settings">,
  repos: VerificationRepositories,
  user: User,
  now: Date,
  outbox: Outbox<VerificationRepositories>,
  channel?: SmsChannel,
): Promise<Result<User>> {
  if (user.phone === null) throw new Error(`resendSmsConfirmation: user ${user.id} has no phone`);
  const refused = tooSoon(user.confirmationSentAt, deps.settings.sms.maxFrequency, now, "sms");
  if (refused) return err(refused);
  const updated: User = { ...user, confirmationSentAt: now };
  await repos.users.update(updated);
  orRollback(
    await sendSmsToken(deps, repos, {
      user: updated,
      tokenType: "confirmation_token",
      phone: user.phone,
      now,
      outbox,
      channel,
    }),
  );
  return ok(updated);
}

/**
 * The channel a phone code is asked for (`channel` of `/otp` and `/signup`): `sms` when absent or
 * empty, `whatsapp` only where it can be carried (`settings.sms.whatsapp`); anything else is refused
 * with the reference's `validation_failed`.
 */
export function messageChannel(
  settings: Pick<VerificationDeps["settings"]["sms"], "whatsapp">,
  channel: string | undefined,
): Result<SmsChannel> {
  if (channel === undefined || channel === "" || channel === "sms") return ok("sms");
  if (channel === "whatsapp" && settings.whatsapp) return ok("whatsapp");
  return err(failures.messageChannelInvalid());
}
