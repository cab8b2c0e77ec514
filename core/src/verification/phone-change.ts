import type { User } from "../accounts/index.js";
import { actorUsername, lockUserByAddress, normalizePhone } from "../accounts/index.js";
import { failures } from "../failures.js";
import { err, Outbox, ok, orRollback, type Result, transactionThenSend } from "../kernel/index.js";
import { sendSmsToken, tooSoon } from "../messaging/index.js";
import type { VerificationDeps, VerificationRepositories } from "./deps.js";
import { otpExpired, saveChannelChange } from "./steps/save-channel-change.js";

export type PhoneChangeDeps = Pick<VerificationDeps, "store" | "random" | "tokens" | "sms" | "settings">;

/** The user once `phone` is theirs and confirmed. */
export function phoneApplied(user: User, phone: string, now: Date): User {
  return {
    ...user,
    phone,
    phoneConfirmedAt: now,
    phoneChange: null,
    phoneChangeSentAt: null,
    // An anonymous user who owns a confirmed number is a permanent user from now on.
    isAnonymous: false,
    updatedAt: now,
  };
}

/** The code of a pending change (the request, or its resend), after the frequency check. */
export async function textPhoneChange(
  deps: PhoneChangeDeps,
  repos: VerificationRepositories,
  user: User,
  newPhone: string,
  now: Date,
  outbox: Outbox<VerificationRepositories>,
): Promise<Result<User>> {
  const refused = tooSoon(user.phoneChangeSentAt, deps.settings.sms.maxFrequency, now, "sms");
  if (refused) return err(refused);
  const pending: User = { ...user, phoneChange: newPhone, phoneChangeSentAt: now, updatedAt: now };
  if ((await repos.users.update(pending)) !== "updated") {
    throw new Error(`requestPhoneChange: user ${user.id} could not be updated`);
  }
  // A code that does not leave takes the pending change back with it.
  outbox.onUndo(async (undoRepos) => {
    const current = await undoRepos.users.lock(user.id);
    if (current?.phoneChange === newPhone) {
      await undoRepos.users.update({ ...current, phoneChange: user.phoneChange, phoneChangeSentAt: null });
    }
  });
  orRollback(
    await sendSmsToken(deps, repos, {
      user: pending,
      tokenType: "phone_change_token",
      phone: newPhone,
      now,
      outbox,
    }),
  );
  return ok(pending);
}

/**
 * Applies the pending phone change of `user` (read with `lock`), for `/verify` type `phone_change`
 * once it has consumed the `phone_change_token`: the new number becomes the phone (confirmed), the
 * phone identity follows (created if missing), an anonymous user becomes permanent, `user_modified` is
 * recorded. Nothing pending → 403 `otp_expired`; the number taken meanwhile → 422 `phone_exists`.
 */
export async function applyPhoneChange(
  deps: Pick<VerificationDeps, "random">,
  repos: VerificationRepositories,
  input: { user: User; now: Date },
): Promise<Result<User>> {
  const { user, now } = input;
  if (user.phoneChange === null) return err(otpExpired());
  const owner = await repos.users.findByPhone(user.phoneChange);
  if (owner !== null && owner.id !== user.id) return err(failures.phoneExists());
  const saved = await saveChannelChange(deps, repos, phoneApplied(user, user.phoneChange, now), now);
  if (!saved.ok) return saved;
  await repos.oneTimeTokens.deleteForUser(user.id, ["phone_change_token"]);
  await repos.audit.record({
    action: "user_modified",
    actorId: user.id,
    actorUsername: actorUsername(saved.value),
    at: now,
  });
  return ok(saved.value);
}

/**
 * Texts a new code for the pending phone change (`POST /resend` type `phone_change`) of the user whose
 * current phone is `phone`, subject to `SMS_MAX_FREQUENCY` (429). Answers `{}` without sending when no
 * such user exists or nothing is pending, so the endpoint reveals neither; `{ messageId }` when sent.
 */
export async function resendPhoneChange(
  deps: PhoneChangeDeps & Pick<VerificationDeps, "store" | "clock">,
  input: { phone: string },
): Promise<Result<{ messageId?: string }>> {
  const phone = normalizePhone(input.phone);
  if (!phone.ok) return phone;
  const now = deps.clock.now();
  const outbox = new Outbox<VerificationRepositories>();
  const sent = await transactionThenSend(deps.store, outbox, async (repos): Promise<Result<boolean>> => {
    const user = await lockUserByAddress(repos.users, "phone", phone.value);
    if (!user || user.phoneChange === null) return ok(false);
    const texted = await textPhoneChange(deps, repos, user, user.phoneChange, now, outbox);
    return texted.ok ? ok(true) : texted;
  });
  if (!sent.ok) return sent;
  return ok(sent.value ? { messageId: outbox.messageId } : {});
}
