import type { User } from "../accounts/index.js";
import { failures } from "../failures.js";
import { err, type Outbox, ok, type Result } from "../kernel/index.js";
import type { PkceChallenge } from "../pkce/index.js";
import {
  EMAIL_CHANGE_TOKENS,
  emailApplied,
  mailEmailChange,
  saveChannelChange,
} from "../verification/index.js";
import type { AccountSettingsDeps, AccountSettingsRepositories } from "./deps.js";

export interface RequestEmailChangeInput {
  /** The user, read with `lock` in the caller's transaction. */
  readonly user: User;
  /** Normalised (`normalizeEmail`). */
  readonly newEmail: string;
  /** Already resolved with `resolveRedirect`. */
  readonly redirectTo: string;
  readonly now: Date;
  /** Where the mails wait until the caller's transaction has committed (`transactionThenSend`). */
  readonly outbox: Outbox<AccountSettingsRepositories>;
  /** A PKCE flow (`code_challenge`): the mailed link then yields a code for `POST /token?grant_type=pkce`. */
  readonly pkce?: PkceChallenge | null | undefined;
}

/**
 * Records a pending change of `user`'s email to `newEmail` and mails its confirmations: one to the new
 * address and — under secure email change, when the user has a current address — one to the current
 * address too, so that both mailboxes must agree before the account moves (a stolen session alone
 * cannot take the account away). Without a current address (an anonymous user) or with secure change
 * off, the new address alone confirms. Under mailer autoconfirm the change is applied at once.
 *
 * Refusals are returned before anything is written: another user has the address (422
 * `email_exists`), the previous change mail is younger than `SMTP_MAX_FREQUENCY` (429). The mails
 * wait in `input.outbox`: a refused send, or the hourly cap, then removes their tokens again.
 */
export async function requestEmailChange(
  deps: Pick<AccountSettingsDeps, "store" | "clock" | "random" | "tokens" | "mailer" | "settings">,
  repos: AccountSettingsRepositories,
  input: RequestEmailChangeInput,
): Promise<Result<User>> {
  const { user, newEmail, now } = input;
  if (newEmail === user.email) return ok(user);
  const owner = await repos.users.findByEmail(newEmail);
  if (owner !== null && owner.id !== user.id) return err(failures.emailExists());
  if (deps.settings.signup.mailerAutoconfirm) {
    await repos.oneTimeTokens.deleteForUser(user.id, EMAIL_CHANGE_TOKENS);
    return saveChannelChange(deps, repos, emailApplied(user, newEmail, now, now), now);
  }
  return mailEmailChange(deps, repos, user, newEmail, input.redirectTo, now, input.outbox, input.pkce);
}
