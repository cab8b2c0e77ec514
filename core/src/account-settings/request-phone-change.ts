import type { User } from "../accounts/index.js";
import { failures } from "../failures.js";
import { err, type Outbox, ok, type Result } from "../kernel/index.js";
import { phoneApplied, saveChannelChange, textPhoneChange } from "../verification/index.js";
import type { AccountSettingsDeps, AccountSettingsRepositories } from "./deps.js";

/**
 * Records a pending change of `user`'s phone to `newPhone` (E.164 digits) and texts a code to the new
 * number (`phone_change_token`), to be entered through `/verify` type `phone_change`. Under SMS
 * autoconfirm the change is applied at once instead.
 *
 * Refusals are returned before anything is written: another user has the number (422 `phone_exists`),
 * the previous code is younger than `SMS_MAX_FREQUENCY` (429 `over_sms_send_rate_limit`).
 * The code waits in `input.outbox` until the caller's transaction has committed (`transactionThenSend`).
 */
export async function requestPhoneChange(
  deps: Pick<AccountSettingsDeps, "store" | "random" | "tokens" | "sms" | "settings">,
  repos: AccountSettingsRepositories,
  input: { user: User; newPhone: string; now: Date; outbox: Outbox<AccountSettingsRepositories> },
): Promise<Result<User>> {
  const { user, newPhone, now } = input;
  if (newPhone === user.phone) return ok(user);
  const owner = await repos.users.findByPhone(newPhone);
  if (owner !== null && owner.id !== user.id) return err(failures.phoneExists());
  if (deps.settings.signup.smsAutoconfirm) {
    await repos.oneTimeTokens.deleteForUser(user.id, ["phone_change_token"]);
    return saveChannelChange(deps, repos, phoneApplied(user, newPhone, now), now);
  }
  return textPhoneChange(deps, repos, user, newPhone, now, input.outbox);
}
