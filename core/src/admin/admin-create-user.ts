import {
  blankUser,
  checkNewPassword,
  createUser,
  mergeMetadata,
  normalizeEmail,
  normalizePhone,
  syncChannelIdentities,
  type UserWithIdentities,
  withProviders,
} from "../accounts/index.js";
import { failures } from "../failures.js";
import { err, isUuid, NIL_UUID, ok, type Result } from "../kernel/index.js";
import { type AdminUserFields, refuseAmbiguousPassword } from "./admin-user-fields.js";
import { parseBanDuration } from "./ban-duration.js";
import type { AdminDeps } from "./deps.js";

/** The normalised email and phone of an admin body (each null when not given). */
export function adminChannels(
  fields: AdminUserFields,
): Result<{ email: string | null; phone: string | null }> {
  const email = fields.email === undefined ? ok(null) : normalizeEmail(fields.email);
  if (!email.ok) return email;
  const phone = fields.phone === undefined ? ok(null) : normalizePhone(fields.phone);
  if (!phone.ok) return phone;
  return ok({ email: email.value, phone: phone.value });
}

/**
 * The `encrypted_password` an admin body asks for: a password is checked against the policy and hashed;
 * an imported hash (bcrypt, argon2) is kept as given, so the user's existing password keeps working,
 * and is upgraded to argon2id by the next successful sign-in. Undefined when the body sets neither.
 */
export async function adminPasswordHash(
  deps: Pick<AdminDeps, "hasher" | "leakedPasswords" | "settings">,
  fields: AdminUserFields,
): Promise<Result<string | undefined>> {
  if (fields.passwordHash !== undefined) {
    if (!deps.hasher.isSupportedHash(fields.passwordHash)) {
      return err(failures.passwordHashInvalid());
    }
    return ok(fields.passwordHash);
  }
  if (fields.password === undefined) return ok(undefined);
  const policy = await checkNewPassword(deps, fields.password);
  if (!policy.ok) return policy;
  return ok(await deps.hasher.hash(fields.password));
}

/** `banned_until` for a `ban_duration`: undefined when none was given, null to unban. */
export function adminBannedUntil(fields: AdminUserFields, now: Date): Result<Date | null | undefined> {
  if (fields.banDuration === undefined) return ok(undefined);
  const ban = parseBanDuration(fields.banDuration);
  if (!ban.ok) return ban;
  // A zero or negative duration ends no later than now: the reference treats "0s" as an unban.
  if (ban.value.kind === "none" || ban.value.ms <= 0) return ok(null);
  return ok(new Date(now.getTime() + ban.value.ms));
}

/**
 * Creates a user for an admin (`POST /admin/users`) from the typed fields of its body.
 *
 * The user needs an email or a phone. `user_metadata` is stored exactly as given (the official client
 * compares it with `toEqual`); `app_metadata` is merged over the `provider`/`providers` computed from
 * the channels, email first. No password leaves the user without one (they sign in by link or OTP).
 * A given `id` must be a non-nil UUID; an id that is already taken answers 422 `user_already_exists`
 * (the reference fails with a 500 there; the clash is with existing state, not a malformed input).
 * `actor.role` is the admin token's role, recorded as the actor's name in the audit log.
 */
export async function adminCreateUser(
  deps: Pick<AdminDeps, "store" | "clock" | "random" | "hasher" | "leakedPasswords" | "settings">,
  input: { actor: { role: string }; fields: AdminUserFields },
): Promise<Result<UserWithIdentities>> {
  const parsed = refuseAmbiguousPassword(input.fields);
  if (!parsed.ok) return parsed;
  // An empty password means "none" on create (the reference then generates one nobody knows).
  const fields = parsed.value.password === "" ? { ...parsed.value, password: undefined } : parsed.value;
  if (fields.email === undefined && fields.phone === undefined) {
    return err(failures.emailInvalid());
  }
  if (fields.id !== undefined && (!isUuid(fields.id) || fields.id === NIL_UUID)) {
    return err(failures.newUserIdNotUuid());
  }
  const channels = adminChannels(fields);
  if (!channels.ok) return channels;
  const { email, phone } = channels.value;
  const now = deps.clock.now();
  const bannedUntil = adminBannedUntil(fields, now);
  if (!bannedUntil.ok) return bannedUntil;
  const password = await adminPasswordHash(deps, fields);
  if (!password.ok) return password;
  if (email !== null && (await deps.store.users.findByEmail(email)) !== null)
    return err(failures.emailExists());
  if (phone !== null && (await deps.store.users.findByPhone(phone)) !== null)
    return err(failures.phoneExists());

  const user = blankUser({
    id: fields.id?.toLowerCase() ?? deps.random.uuid(),
    aud: fields.aud ?? deps.settings.jwt.aud,
    role: fields.role ?? deps.settings.jwt.defaultRole,
    createdAt: now,
    email,
    phone,
    encryptedPassword: password.value ?? null,
    emailConfirmedAt: fields.emailConfirm && email !== null ? now : null,
    phoneConfirmedAt: fields.phoneConfirm && phone !== null ? now : null,
    userMetadata: fields.userMetadata ?? {},
    bannedUntil: bannedUntil.value ?? null,
  });
  const { identities } = syncChannelIdentities(user, [], { now, newId: () => deps.random.uuid() });
  const created = {
    ...user,
    appMetadata: mergeMetadata(withProviders({}, identities), fields.appMetadata ?? {}),
  };

  return deps.store.transaction(async (repos) => {
    // Checked again by the insert itself: a concurrent create may have taken the address meanwhile.
    const inserted = await createUser(deps, repos, created, { now, identities });
    if (!inserted.created) {
      if (inserted.clash === "duplicate_email") return err(failures.emailExists());
      if (inserted.clash === "duplicate_phone") return err(failures.phoneExists());
      return err(failures.userIdTaken());
    }
    await repos.audit.record({
      action: "user_signedup",
      actorId: "",
      actorUsername: input.actor.role,
      traits: { user_id: created.id, user_email: email ?? "", user_phone: phone ?? "" },
      at: now,
    });
    return ok({ ...created, identities });
  });
}
