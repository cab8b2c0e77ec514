import { lockUserByAddress, normalizeEmail, normalizePhone } from "../accounts/index.js";
import { failures } from "../failures.js";
import { err, Outbox, ok, type Result, resolveRedirect, transactionThenSend } from "../kernel/index.js";
import { tooSoon } from "../messaging/index.js";
import type { PkceChallenge } from "../pkce/index.js";
import type { VerificationDeps, VerificationRepositories } from "./deps.js";
import { resendEmailChange } from "./email-change.js";
import { resendPhoneChange } from "./phone-change.js";
import { answerAlike } from "./steps/answer-alike.js";
import { resendEmailConfirmation, resendSmsConfirmation } from "./steps/confirmation.js";

export interface ResendInput {
  /** Validated here: anything but the four types is refused. */
  readonly type: string;
  readonly email?: string;
  readonly phone?: string;
  readonly redirectTo?: string;
  /** A PKCE flow (`code_challenge`): the mailed link then yields a code for `POST /token?grant_type=pkce`. */
  readonly pkce?: PkceChallenge | null | undefined;
}

type Deps = Pick<
  VerificationDeps,
  "store" | "clock" | "random" | "tokens" | "mailer" | "sms" | "deliveries" | "settings"
>;

/**
 * Sends a pending confirmation again (`POST /resend`): `signup` (the email confirmation of an
 * unconfirmed user), `sms` (the phone confirmation code), `email_change` and `phone_change` (the
 * pending change's messages). Answers `{}` — `{ messageId }` when an SMS went out — also when there is
 * no such user or nothing to confirm, so the endpoint does not reveal which addresses have accounts.
 * Each message keeps its gap (`SMTP_MAX_FREQUENCY`, `SMS_MAX_FREQUENCY`: 429 with the seconds left),
 * and a send that fails removes its token again, so asking again works. Mail is delivered after the
 * answer (`deliveries`: a failure is logged, not answered); an SMS before it (its id is the answer).
 */
export async function resend(deps: Deps, input: ResendInput): Promise<Result<{ messageId?: string }>> {
  const { type } = input;
  if (type !== "signup" && type !== "sms" && type !== "email_change" && type !== "phone_change") {
    return err(failures.resendTypeMissing());
  }
  const byEmail = type === "signup" || type === "email_change";
  if (byEmail && !input.email) return err(failures.resendEmailMissing());
  if (!byEmail && !input.phone) return err(failures.resendPhoneMissing());
  const { signup } = deps.settings;
  if (byEmail && !signup.emailEnabled) {
    return err(failures.emailLoginsDisabled());
  }
  if (!byEmail && !signup.phoneEnabled) {
    return err(failures.phoneProviderUnsupported());
  }
  const redirectTo = resolveRedirect(input.redirectTo, {
    siteUrl: deps.settings.siteUrl,
    allowList: deps.settings.uriAllowList,
  });
  if (type === "email_change")
    return resendEmailChange(deps, { email: input.email ?? "", redirectTo, pkce: input.pkce });
  if (type === "phone_change") return resendPhoneChange(deps, { phone: input.phone ?? "" });
  return type === "signup"
    ? resendSignup(deps, input.email ?? "", redirectTo, input.pkce)
    : resendSms(deps, input.phone ?? "");
}

async function resendSignup(
  deps: Deps,
  rawEmail: string,
  redirectTo: string,
  pkce: PkceChallenge | null | undefined,
): Promise<Result<{ messageId?: string }>> {
  const email = normalizeEmail(rawEmail);
  if (!email.ok) return email;
  const now = deps.clock.now();
  const known = await deps.store.users.findByEmail(email.value);
  const pending = known !== null && known.emailConfirmedAt === null;
  const refused =
    pending && tooSoon(known.confirmationSentAt, deps.settings.mailer.maxFrequency, now, "email");
  if (refused) return err(refused);
  const deliver = () => mailConfirmation(deps, email.value, redirectTo, now, pkce);
  return answerAlike(deps, now, pending ? deliver : null);
}

/** Mails the confirmation again (after the answer; the cap already counted). */
function mailConfirmation(
  deps: Deps,
  email: string,
  redirectTo: string,
  now: Date,
  pkce: PkceChallenge | null | undefined,
) {
  const outbox = new Outbox<VerificationRepositories>({ reserved: true });
  return transactionThenSend(deps.store, outbox, async (repos): Promise<Result<{ messageId?: string }>> => {
    const user = await lockUserByAddress(repos.users, "email", email);
    // Confirmed or unknown: nothing to send, and the answer must not say which.
    if (!user || user.emailConfirmedAt !== null) return ok({});
    const sent = await resendEmailConfirmation(deps, repos, user, { redirectTo, now, pkce, outbox });
    return sent.ok ? ok({}) : sent;
  });
}

async function resendSms(deps: Deps, rawPhone: string): Promise<Result<{ messageId?: string }>> {
  const phone = normalizePhone(rawPhone);
  if (!phone.ok) return phone;
  const now = deps.clock.now();
  const outbox = new Outbox<VerificationRepositories>();
  const sent = await transactionThenSend(deps.store, outbox, async (repos): Promise<Result<boolean>> => {
    const user = await lockUserByAddress(repos.users, "phone", phone.value);
    if (!user || user.phoneConfirmedAt !== null) return ok(false);
    const texted = await resendSmsConfirmation(deps, repos, user, now, outbox);
    return texted.ok ? ok(true) : texted;
  });
  if (!sent.ok) return sent;
  return ok(sent.value ? { messageId: outbox.messageId } : {});
}
