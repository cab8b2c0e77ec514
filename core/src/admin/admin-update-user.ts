import type { User, UserWithIdentities } from "../accounts/index.js";
import { mergeMetadata, syncChannelIdentities, withProviders } from "../accounts/index.js";
import { failures } from "../failures.js";
import { err, isUuid, ok, type Result } from "../kernel/index.js";
import { type AdminActor, auditActor } from "./actor.js";
import { adminBannedUntil, adminChannels, adminPasswordHash } from "./admin-create-user.js";
import { type AdminUserFields, refuseAmbiguousPassword } from "./admin-user-fields.js";
import type { AdminDeps } from "./deps.js";

/**
 * Updates a user for an admin (`PUT /admin/users/{id}`) from the typed fields of its body. Email and
 * phone are set directly (no confirmation mail: the admin is trusted), `email_confirm`/`phone_confirm`
 * confirm them, and a confirmed channel makes an anonymous user permanent. `user_metadata` and
 * `app_metadata` are shallow merges in which `null` deletes a key.
 *
 * `ban_duration` bans until now + duration and revokes every refresh token of the user at once, so
 * the ban takes effect at the next refresh rather than whenever the sessions would have ended;
 * `"none"` unbans. An `id` in the body is ignored (the path names the user). Everything is validated
 * before the first write, and written in one transaction.
 */
export async function adminUpdateUser(
  deps: Pick<AdminDeps, "store" | "clock" | "random" | "hasher" | "leakedPasswords" | "settings">,
  input: { actor: AdminActor; userId: string; fields: AdminUserFields },
): Promise<Result<UserWithIdentities>> {
  if (!isUuid(input.userId)) return err(failures.userIdNotUuid());
  const parsed = refuseAmbiguousPassword(input.fields);
  if (!parsed.ok) return parsed;
  const fields = parsed.value;
  const channels = adminChannels(fields);
  if (!channels.ok) return channels;
  const { email, phone } = channels.value;
  const now = deps.clock.now();
  const bannedUntil = adminBannedUntil(fields, now);
  if (!bannedUntil.ok) return bannedUntil;
  const password = await adminPasswordHash(deps, fields);
  if (!password.ok) return password;

  return deps.store.transaction(async (repos) => {
    const user = await repos.users.lock(input.userId);
    if (user === null) return err(failures.userNotFound());
    if (email !== null && email !== user.email) {
      const owner = await repos.users.findByEmail(email);
      if (owner !== null && owner.id !== user.id) return err(failures.emailExists());
    }
    if (phone !== null && phone !== user.phone) {
      const owner = await repos.users.findByPhone(phone);
      if (owner !== null && owner.id !== user.id) return err(failures.phoneExists());
    }

    let next: User = {
      ...user,
      role: fields.role ?? user.role,
      aud: fields.aud ?? user.aud,
      email: email ?? user.email,
      phone: phone ?? user.phone,
      encryptedPassword: password.value ?? user.encryptedPassword,
      bannedUntil: bannedUntil.value === undefined ? user.bannedUntil : bannedUntil.value,
      updatedAt: now,
    };
    if (fields.emailConfirm && next.email !== null && next.emailConfirmedAt === null) {
      next = { ...next, emailConfirmedAt: now };
    }
    if (fields.phoneConfirm && next.phone !== null && next.phoneConfirmedAt === null) {
      next = { ...next, phoneConfirmedAt: now };
    }
    const confirmedChannel =
      (next.email !== null && next.emailConfirmedAt !== null) ||
      (next.phone !== null && next.phoneConfirmedAt !== null);
    if (next.isAnonymous && confirmedChannel) next = { ...next, isAnonymous: false };

    const synced = syncChannelIdentities(next, await repos.identities.listByUser(user.id), {
      now,
      newId: () => deps.random.uuid(),
    });
    const appMetadata =
      synced.inserted.length > 0 ? withProviders(next.appMetadata, synced.identities) : next.appMetadata;
    next = {
      ...next,
      appMetadata: fields.appMetadata ? mergeMetadata(appMetadata, fields.appMetadata) : appMetadata,
      userMetadata: fields.userMetadata
        ? mergeMetadata(next.userMetadata, fields.userMetadata)
        : next.userMetadata,
    };

    const updated = await repos.users.update(next);
    if (updated === "duplicate_email") return err(failures.emailExists());
    if (updated === "duplicate_phone") return err(failures.phoneExists());
    if (updated === "not_found") return err(failures.userNotFound());
    for (const identity of synced.inserted) await repos.identities.insert(identity);
    for (const identity of synced.updated) await repos.identities.update(identity);
    if (bannedUntil.value) await repos.sessions.revokeAllForUser(user.id, now);
    // A password set by an admin is a reset: whoever held the old one must lose every session.
    if (password.value !== undefined) await repos.sessions.deleteForUser(user.id);
    await repos.audit.record({
      action: "user_modified",
      ...auditActor(input.actor),
      traits: { user_id: user.id, user_email: next.email ?? "", user_phone: next.phone ?? "" },
      at: now,
    });
    return ok({ ...next, identities: synced.identities });
  });
}
