import type { AuditAction, User } from "../../accounts/index.js";
import { actorUsername, confirmedAt, signInKey, withoutExternalIdentities } from "../../accounts/index.js";
import { orRollback, type Result } from "../../kernel/index.js";
import type { VerificationDeps, VerifyRepositories } from "../deps.js";
import type { VerifyType } from "../verify-type.js";
import { saveChannelChange } from "./save-channel-change.js";

/**
 * Applies a consumed confirmation or recovery token to its user, locked, inside the verify
 * transaction: confirms the channel the token went to (identity `*_verified` too, and an anonymous
 * user verifying a phone becomes permanent), sets an invited user's first password, and records
 * `user_signedup` (or `invite_accepted`) on the first confirmation, and ends the lockout of the
 * address proven (LOCKOUT_*).
 * A weak password throws (rolling the consumption back, so the invitation can be accepted again).
 */
export async function applyVerification(
  deps: Pick<VerificationDeps, "random" | "hasher" | "settings" | "tokens">,
  repos: VerifyRepositories,
  user: User,
  input: {
    type: Exclude<VerifyType, "email_change" | "phone_change">;
    password?: string | undefined;
    /** The password's check (`checkNewPassword`), made before the transaction. */
    passwordCheck: Result<void>;
    now: Date;
  },
): Promise<Result<User>> {
  const { type, now } = input;
  let next: User = { ...user, updatedAt: now };
  const audits: AuditAction[] = [];
  if (type === "sms") {
    if (user.phoneConfirmedAt === null) audits.push("user_signedup");
    next = { ...next, phoneConfirmedAt: user.phoneConfirmedAt ?? now, isAnonymous: false };
  } else {
    next = { ...next, emailConfirmedAt: user.emailConfirmedAt ?? now };
    const firstConfirmation = user.emailConfirmedAt === null;
    const acceptsInvitation = (type === "invite" || type === "signup") && user.invitedAt !== null;
    // A password set before the mailbox was proven — by whoever signed up with this address, or before
    // an invitation — must not survive the owner proving the mailbox by an invitation, a magic link or
    // a recovery code: that would hand the account to the one who set it (pre-account takeover). Only
    // the sign-up's own confirmation keeps the password chosen at sign-up.
    const provenByOwnerOnly = firstConfirmation && (type !== "signup" || acceptsInvitation);
    if (acceptsInvitation && input.password) {
      orRollback(input.passwordCheck);
      next = { ...next, encryptedPassword: await deps.hasher.hash(input.password) };
    } else if (provenByOwnerOnly) {
      next = { ...next, encryptedPassword: null };
    }
    if (provenByOwnerOnly) {
      // Whoever held sessions before the mailbox owner proved it must not keep them (reference).
      await repos.sessions.deleteForUser(user.id);
    }
    if (provenByOwnerOnly && confirmedAt(user) === null) {
      // Nor an identity of a provider that did not vouch for the address (the account was never
      // confirmed): its holder would sign into the account the owner now confirms.
      next = (await withoutExternalIdentities(repos.identities, next)) ?? next;
    }
    if (acceptsInvitation && user.emailConfirmedAt === null) audits.push("invite_accepted");
    else if (user.emailConfirmedAt === null) audits.push("user_signedup");
  }
  // Whoever proves the address a password sign-in names is its owner: its lockout ends.
  const proven = type === "sms" ? user.phone : user.email;
  if (proven)
    await repos.signInFailures.clear([
      signInKey(deps.tokens.hash, type === "sms" ? "phone" : "email", proven),
    ]);
  // The number or address may have been taken by someone else meanwhile: the token is spent then.
  const saved = await saveChannelChange(deps, repos, next, now);
  if (!saved.ok) return saved;
  for (const action of audits) {
    await repos.audit.record({
      action,
      actorId: user.id,
      actorUsername: actorUsername(saved.value),
      at: now,
    });
  }
  return saved;
}
