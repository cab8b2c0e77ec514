import type { User } from "../../accounts/index.js";
import { syncChannelIdentities, withProviders } from "../../accounts/index.js";
import { failures } from "../../failures.js";
import { err, ok, type Result } from "../../kernel/index.js";
import type { VerificationDeps, VerificationRepositories } from "../deps.js";

/** The refusal of a link or code that no longer matches anything pending (403, as `/verify` answers). */
export const otpExpired = () => failures.otpExpired();

/**
 * Writes `next` — a user whose email or phone has just been set and confirmed — and brings the email
 * and phone identities in line with it (address and `*_verified` updated, a missing one created, and
 * `app_metadata.providers` recomputed when one was), so the identities never show a stale address.
 * An address another user took meanwhile is refused (422 `email_exists` / `phone_exists`) before any
 * identity is written.
 */
export async function saveChannelChange(
  deps: Pick<VerificationDeps, "random">,
  repos: VerificationRepositories,
  next: User,
  now: Date,
): Promise<Result<User>> {
  const current = await repos.identities.listByUser(next.id);
  const synced = syncChannelIdentities(next, current, { now, newId: () => deps.random.uuid() });
  const user =
    synced.inserted.length > 0
      ? { ...next, appMetadata: withProviders(next.appMetadata, synced.identities) }
      : next;
  const updated = await repos.users.update(user);
  if (updated === "duplicate_email") return err(failures.emailExists());
  if (updated === "duplicate_phone") return err(failures.phoneExists());
  if (updated === "not_found") return err(failures.userNotFound());
  for (const identity of synced.inserted) await repos.identities.insert(identity);
  for (const identity of synced.updated) await repos.identities.update(identity);
  return ok(user);
}
