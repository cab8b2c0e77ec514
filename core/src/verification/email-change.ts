import type { User } from "../accounts/index.js";
import { actorUsername, lockUserByAddress, normalizeEmail } from "../accounts/index.js";
import { failures } from "../failures.js";
import {
  err,
  Outbox,
  ok,
  orRollback,
  type Result,
  resolveRedirect,
  transactionThenSend,
} from "../kernel/index.js";
import type { OneTimeToken, OneTimeTokenType } from "../messaging/index.js";
import { sendEmailToken, tooSoon } from "../messaging/index.js";
import type { PkceChallenge } from "../pkce/index.js";
import type { VerificationDeps, VerificationRepositories } from "./deps.js";
import { answerAlike } from "./steps/answer-alike.js";
import { otpExpired, saveChannelChange } from "./steps/save-channel-change.js";

export type EmailChangeDeps = Pick<
  VerificationDeps,
  "store" | "clock" | "random" | "tokens" | "mailer" | "settings"
>;

export const EMAIL_CHANGE_TOKENS: readonly OneTimeTokenType[] = [
  "email_change_token_new",
  "email_change_token_current",
];

/** What `/verify` answers after the first of the two confirmations of a secure email change. */
export const EMAIL_CHANGE_PENDING_MESSAGE =
  "Confirmation link accepted. Please proceed to confirm link sent to the other email";

/**
 * The user once `email` is theirs. A confirmation link keeps an earlier `email_confirmed_at` (as the
 * reference); autoconfirm stamps it now, as applying an address at once always has here.
 */
export function emailApplied(
  user: User,
  email: string,
  now: Date,
  confirmedAt = user.emailConfirmedAt ?? now,
): User {
  return {
    ...user,
    email,
    emailConfirmedAt: confirmedAt,
    emailChange: null,
    emailChangeSentAt: null,
    // An anonymous user who owns a confirmed address is a permanent user from now on.
    isAnonymous: false,
    updatedAt: now,
  };
}

/** The mails of a pending change (the request, or its resend), after the frequency check. */
export async function mailEmailChange(
  deps: EmailChangeDeps,
  repos: VerificationRepositories,
  user: User,
  newEmail: string,
  redirectTo: string,
  now: Date,
  outbox: Outbox<VerificationRepositories>,
  pkce?: PkceChallenge | null | undefined,
): Promise<Result<User>> {
  const refused = tooSoon(user.emailChangeSentAt, deps.settings.mailer.maxFrequency, now, "email");
  if (refused) return err(refused);
  const pending: User = { ...user, emailChange: newEmail, emailChangeSentAt: now, updatedAt: now };
  if ((await repos.users.update(pending)) !== "updated") {
    throw new Error(`requestEmailChange: user ${user.id} could not be updated`);
  }
  // A confirmation that does not leave takes the pending change back with its tokens.
  outbox.onUndo(async (undoRepos) => {
    const current = await undoRepos.users.lock(user.id);
    if (current?.emailChange === newEmail) {
      await undoRepos.users.update({ ...current, emailChange: user.emailChange, emailChangeSentAt: null });
    }
  });
  const secure = deps.settings.mailer.secureEmailChange && user.email !== null;
  // Which confirmations are still outstanding is read from the live tokens (`confirmEmailChange`):
  // a current-address token left over from an earlier secure request must not be waited for.
  if (!secure) await repos.oneTimeTokens.deleteForUser(user.id, ["email_change_token_current"]);
  const mail = {
    user: pending,
    mailKind: "email_change",
    verifyType: "email_change",
    newEmail,
    redirectTo,
    now,
    outbox,
    pkce,
  } as const;
  orRollback(
    await sendEmailToken(deps, repos, { ...mail, tokenType: "email_change_token_new", to: newEmail }),
  );
  if (secure && user.email !== null) {
    orRollback(
      await sendEmailToken(deps, repos, { ...mail, tokenType: "email_change_token_current", to: user.email }),
    );
  }
  return ok(pending);
}

export type EmailChangeOutcome =
  | { readonly kind: "done"; readonly user: User }
  | { readonly kind: "pending"; readonly message: string };

/**
 * Applies one confirmation of a pending email change, for `/verify` type `email_change` once it has
 * consumed `consumed` (an `email_change_token_new` or `_current` of `user`, read with `lock`).
 *
 * While the other address's token is still live this was the first of two confirmations: nothing
 * else changes and the answer is the reference's "proceed to confirm" message. Otherwise the change
 * is applied: the new address becomes the email (confirmed), the pending fields are cleared, the
 * email identity follows (created if the user had none), an anonymous user becomes permanent, and
 * `user_modified` is recorded. If another user took the address meanwhile → 422 `email_exists`;
 * a token that no longer matches the pending change → 403 `otp_expired`.
 */
export async function confirmEmailChange(
  deps: Pick<VerificationDeps, "random">,
  repos: VerificationRepositories,
  user: User,
  consumed: OneTimeToken,
  now: Date,
): Promise<Result<EmailChangeOutcome>> {
  if (!EMAIL_CHANGE_TOKENS.includes(consumed.type)) {
    throw new Error(`confirmEmailChange: a ${consumed.type} is not an email change token`);
  }
  const isNew = consumed.type === "email_change_token_new";
  const target = user.emailChange;
  if (target === null || consumed.relatesTo !== (isNew ? target : user.email)) return err(otpExpired());
  const other = isNew ? "email_change_token_current" : "email_change_token_new";
  if ((await repos.oneTimeTokens.find(user.id, other)) !== null) {
    return ok({ kind: "pending", message: EMAIL_CHANGE_PENDING_MESSAGE });
  }
  const owner = await repos.users.findByEmail(target);
  if (owner !== null && owner.id !== user.id) return err(failures.emailExists());
  const saved = await saveChannelChange(deps, repos, emailApplied(user, target, now), now);
  if (!saved.ok) return saved;
  await repos.oneTimeTokens.deleteForUser(user.id, EMAIL_CHANGE_TOKENS);
  await repos.audit.record({
    action: "user_modified",
    actorId: user.id,
    actorUsername: actorUsername(saved.value),
    at: now,
  });
  return ok({ kind: "done", user: saved.value });
}

/**
 * Sends the confirmations of the pending email change again (`POST /resend` type `email_change`),
 * for the user whose current address is `email`: new tokens replace the old ones, subject to
 * `SMTP_MAX_FREQUENCY` (429). Answers `{}` and sends nothing when no such user exists or nothing is
 * pending, so the endpoint reveals neither, and after the same work (`answerAlike`): the mails follow
 * the answer; one that cannot be sent removes the new tokens and is logged.
 */
export async function resendEmailChange(
  deps: EmailChangeDeps & Pick<VerificationDeps, "store" | "deliveries">,
  input: { email: string; redirectTo?: string | undefined; pkce?: PkceChallenge | null | undefined },
): Promise<Result<Record<string, never>>> {
  const email = normalizeEmail(input.email);
  if (!email.ok) return email;
  const now = deps.clock.now();
  const { siteUrl, uriAllowList } = deps.settings;
  const redirectTo = resolveRedirect(input.redirectTo, { siteUrl, allowList: uriAllowList });
  const known = await deps.store.users.findByEmail(email.value);
  const pending = known !== null && known.emailChange !== null;
  const refused =
    pending && tooSoon(known.emailChangeSentAt, deps.settings.mailer.maxFrequency, now, "email");
  if (refused) return err(refused);
  return answerAlike(
    deps,
    now,
    pending ? () => mailChangeAgain(deps, email.value, redirectTo, now, input.pkce) : null,
  );
}

/** Mails the pending change's confirmations again (after the answer; the cap already counted). */
function mailChangeAgain(
  deps: EmailChangeDeps & Pick<VerificationDeps, "store">,
  email: string,
  redirectTo: string,
  now: Date,
  pkce: PkceChallenge | null | undefined,
) {
  const outbox = new Outbox<VerificationRepositories>({ reserved: true });
  return transactionThenSend(deps.store, outbox, async (repos): Promise<Result<Record<string, never>>> => {
    const user = await lockUserByAddress(repos.users, "email", email);
    if (!user || user.emailChange === null) return ok({});
    const sent = await mailEmailChange(deps, repos, user, user.emailChange, redirectTo, now, outbox, pkce);
    return sent.ok ? ok({}) : sent;
  });
}
