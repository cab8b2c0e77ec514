import { actorUsername, type Identity, type User, withProviders } from "../accounts/index.js";
import { failures } from "../failures.js";
import { err, isUuid, ok, type Result } from "../kernel/index.js";
import { type NotifyDeps, notifyAccountChange } from "../messaging/index.js";
import type { ExternalDeps } from "./deps.js";
import { checkLinkingAssurance } from "./steps/linking-assurance.js";

/**
 * `DELETE /user/identities/<id>` (under `SECURITY_MANUAL_LINKING_ENABLED`): removes one of the user's
 * identities. The last one cannot go (422 `single_identity_not_deletable`), an id that is not one of
 * the user's is 422 `identity_not_found`. Unlinking the phone identity removes the phone; otherwise
 * the email is recomputed from the remaining identities (verified first), and an address another
 * account holds is 422 `email_conflict_identity_not_deletable` with nothing changed. When the email
 * changes, every pending token goes (they were sent for the old address, as the reference's
 * `ClearAllPendingTokens`), and an address its identity does not vouch for is not confirmed — even
 * under mailer autoconfirm, which the reference honours here: a confirmed unverified address would
 * let a verified sign-in with it into this account.
 */
export async function unlinkIdentity(
  deps: Pick<ExternalDeps, "store" | "clock" | "settings" | "mailer" | "deliveries"> &
    Pick<NotifyDeps, "settings">,
  input: { userId: string; identityId: string; sessionId?: string | null | undefined },
): Promise<Result<Record<string, never>>> {
  if (!deps.settings.manualLinkingEnabled) return err(failures.manualLinkingDisabled());
  if (!isUuid(input.identityId)) return err(failures.identityIdNotUuid());
  const now = deps.clock.now();
  const unlinked: { user: User; provider: string; to: string }[] = [];
  const result = await deps.store.transaction(async (repos): Promise<Result<Record<string, never>>> => {
    const user = await repos.users.lock(input.userId);
    if (user === null) return err(failures.userNotFound());
    const assured = await checkLinkingAssurance(repos, user.id, input.sessionId);
    if (!assured.ok) return assured;
    const identities = await repos.identities.listByUser(user.id);
    if (identities.length <= 1) return err(failures.singleIdentityNotDeletable());
    const target = identities.find((i) => i.id === input.identityId);
    if (target === undefined) return err(failures.identityNotFound());
    const remaining = identities.filter((i) => i.id !== target.id);
    let next = { ...user, appMetadata: withProviders(user.appMetadata, remaining), updatedAt: now };
    if (target.provider === "phone") next = { ...next, phone: null, phoneConfirmedAt: null };
    else next = promoted(next, emailFrom(remaining, user.email));
    const saved = await repos.users.update(next);
    if (saved === "duplicate_email") return err(failures.emailConflictIdentityNotDeletable());
    if (next.email !== user.email) await repos.oneTimeTokens.deleteForUser(user.id);
    await repos.externalIdentities.delete(target.id);
    await repos.audit.record({
      action: "identity_unlinked",
      actorId: user.id,
      actorUsername: actorUsername(user),
      traits: { identity_id: target.id, provider: target.provider, provider_id: target.providerId },
      at: now,
    });
    // Told at the address the user had before: the unlinking may have replaced it.
    if (user.email !== null) unlinked.push({ user: next, provider: target.provider, to: user.email });
    return ok({});
  });
  for (const { user, provider, to } of unlinked) {
    await notifyAccountChange(deps, user, { kind: "identity_unlinked_notification", provider, to }, now);
  }
  return result;
}

interface Chosen {
  readonly email: string | null;
  /** Whether the identity that gives it vouches for it; null when the current email stays. */
  readonly verified: boolean | null;
}

/** The email the remaining identities give (a verified one first; the current one if it remains). */
function emailFrom(identities: readonly Identity[], current: string | null): Chosen {
  const emails = identities
    .map((i) => ({ email: i.identityData.email, verified: i.identityData.email_verified === true }))
    .filter((e): e is { email: string; verified: boolean } => typeof e.email === "string" && e.email !== "")
    .map((e) => ({ ...e, email: e.email.toLowerCase() }));
  if (current !== null && emails.some((e) => e.email === current)) return { email: current, verified: null };
  const chosen = emails.find((e) => e.verified) ?? emails[0];
  return { email: chosen?.email ?? null, verified: chosen?.verified ?? false };
}

/** `user` with the email `chosen` gives: a new address drops what was pending for the old one. */
function promoted(user: User, chosen: Chosen): User {
  if (chosen.verified === null || chosen.email === user.email) return user;
  const changed: User = {
    ...user,
    email: chosen.email,
    confirmationSentAt: null,
    recoverySentAt: null,
    magicLinkSentAt: null,
    emailChange: null,
    emailChangeSentAt: null,
    phoneChange: null,
    phoneChangeSentAt: null,
    reauthenticationSentAt: null,
    reauthenticationToken: null,
  };
  if (chosen.verified) return changed;
  return {
    ...changed,
    emailConfirmedAt: null,
    userMetadata: { ...user.userMetadata, email_verified: false },
  };
}
