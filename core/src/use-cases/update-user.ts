import { actorUsername } from "../domain/audit-actor.js";
import { syncChannelIdentities, withProviders } from "../domain/channel-identity.js";
import { constantTimeEqual } from "../domain/constant-time.js";
import { normalizeEmail } from "../domain/email.js";
import { mergeMetadata } from "../domain/metadata.js";
import { checkPassword } from "../domain/password-policy.js";
import { normalizePhone } from "../domain/phone.js";
import type { User, UserWithIdentities } from "../domain/user.js";
import { type AuthError, authError } from "../errors.js";
import type { Repositories } from "../ports/store.js";
import { err, ok, type Result } from "../result.js";
import { emailExists, phoneExists } from "./admin-create-user.js";
import type { AuthDeps } from "./deps.js";

/** How long a reauthentication nonce is accepted: `MAILER_OTP_EXP`'s default, which is not configurable here. */
const NONCE_TTL_MS = 3600 * 1000;

export interface UpdateUserInput {
  readonly userId: string;
  /** The session of the access token (kept when the password changes), or null for a session-less token. */
  readonly sessionId: string | null;
  /** Merged into `user_metadata`; a `null` value deletes the key. */
  readonly data?: Readonly<Record<string, unknown>> | null;
  readonly password?: string;
  /** The nonce from `GET /reauthenticate`, when password updates require reauthentication. */
  readonly nonce?: string;
  readonly email?: string;
  readonly phone?: string;
}

type Deps = Pick<AuthDeps, "store" | "clock" | "random" | "tokens" | "hasher" | "mailer" | "settings">;

/** What the request changes about the email or phone: applied now, pending confirmation, or nothing. */
type ChannelChange = { kind: "none" } | { kind: "applied" } | { kind: "pending"; address: string };

/** Applies a new email or phone to `user`, at once under autoconfirm, else as a pending change. */
function changeChannel(
  user: User,
  channel: "email" | "phone",
  address: string,
  autoconfirm: boolean,
  now: Date,
): { user: User; change: ChannelChange } {
  if (channel === "email") {
    if (address === user.email) return { user, change: { kind: "none" } };
    if (!autoconfirm) {
      return {
        user: { ...user, emailChange: address, emailChangeSentAt: now },
        change: { kind: "pending", address },
      };
    }
    const applied = { ...user, email: address, emailConfirmedAt: now, emailChange: null, isAnonymous: false };
    return { user: applied, change: { kind: "applied" } };
  }
  if (address === user.phone) return { user, change: { kind: "none" } };
  if (!autoconfirm) {
    return {
      user: { ...user, phoneChange: address, phoneChangeSentAt: now },
      change: { kind: "pending", address },
    };
  }
  const applied = { ...user, phone: address, phoneConfirmedAt: now, phoneChange: null, isAnonymous: false };
  return { user: applied, change: { kind: "applied" } };
}

/**
 * The reauthentication check of a password update: the nonce sent by `GET /reauthenticate` must be
 * presented, match the stored hash and be younger than an hour. Compared in constant time, so the
 * stored hash cannot be guessed byte by byte.
 */
function checkNonce(deps: Deps, user: User, nonce: string | undefined, now: Date): AuthError | null {
  if (!nonce) return authError(400, "reauthentication_needed", "Password update requires reauthentication");
  const sentAt = user.reauthenticationSentAt;
  const valid =
    user.reauthenticationToken !== null &&
    sentAt !== null &&
    now.getTime() <= sentAt.getTime() + NONCE_TTL_MS &&
    constantTimeEqual(deps.tokens.hash(nonce), user.reauthenticationToken);
  if (valid) return null;
  return authError(
    422,
    "reauthentication_not_valid",
    "Reauthentication failed: nonce is invalid or has expired",
  );
}

/** Checks a new email and phone against other users and applies them (or records them as pending). */
async function planChannels(
  deps: Pick<Deps, "settings">,
  repos: Repositories,
  user: User,
  wanted: { email: string | null; phone: string | null },
  now: Date,
): Promise<Result<{ user: User; emailChange: ChannelChange; phoneChange: ChannelChange }>> {
  const { signup } = deps.settings;
  let next = user;
  let emailChange: ChannelChange = { kind: "none" };
  let phoneChange: ChannelChange = { kind: "none" };
  if (wanted.email !== null) {
    const owner = await repos.users.findByEmail(wanted.email);
    if (owner !== null && owner.id !== user.id) return err(emailExists());
    ({ user: next, change: emailChange } = changeChannel(
      next,
      "email",
      wanted.email,
      signup.mailerAutoconfirm,
      now,
    ));
  }
  if (wanted.phone !== null) {
    const owner = await repos.users.findByPhone(wanted.phone);
    if (owner !== null && owner.id !== user.id) return err(phoneExists());
    ({ user: next, change: phoneChange } = changeChannel(
      next,
      "phone",
      wanted.phone,
      signup.smsAutoconfirm,
      now,
    ));
  }
  return ok({ user: next, emailChange, phoneChange });
}

/** `next` with the new password, after the anonymous, reauthentication and same-password checks. */
async function planPassword(
  deps: Deps,
  user: User,
  next: User,
  input: { password: string; nonce: string | undefined },
  now: Date,
): Promise<Result<User>> {
  // Only an address that is actually set counts: a pending one cannot be signed in with yet.
  if (user.isAnonymous && next.email === null && next.phone === null) {
    return err(
      authError(
        422,
        "validation_failed",
        "Updating password of an anonymous user without an email or phone is not allowed",
      ),
    );
  }
  let updated = next;
  if (deps.settings.updatePasswordRequiresReauthentication) {
    const failure = checkNonce(deps, user, input.nonce, now);
    if (failure) return err(failure);
    updated = { ...updated, reauthenticationToken: null };
  }
  if (user.encryptedPassword !== null && (await deps.hasher.verify(user.encryptedPassword, input.password))) {
    return err(authError(422, "same_password", "New password should be different from the old password."));
  }
  return ok({ ...updated, encryptedPassword: await deps.hasher.hash(input.password) });
}

/**
 * Updates the authenticated user (`PUT /user`): metadata, email, phone and password, validated in
 * full before the first write and written in one transaction with the user row locked.
 *
 * A new email or phone is applied at once under mailer/SMS autoconfirm (which also makes an anonymous
 * user permanent), otherwise recorded as pending and, for email, mailed to the new address. A new
 * password must pass the policy, differ from the current one and — when configured — come with a valid
 * reauthentication nonce; it ends the user's other sessions, since whoever held them may be the
 * reason for the change. An anonymous user may only set a password once they have an email or phone.
 */
export async function updateUser(deps: Deps, input: UpdateUserInput): Promise<Result<UserWithIdentities>> {
  const email = input.email ? normalizeEmail(input.email) : ok(null);
  if (!email.ok) return email;
  const phone = input.phone ? normalizePhone(input.phone) : ok(null);
  if (!phone.ok) return phone;
  const { password } = input;
  if (password !== undefined) {
    const policy = checkPassword(deps.settings.password, password);
    if (!policy.ok) return policy;
  }
  const now = deps.clock.now();

  return deps.store.transaction(async (repos) => {
    const user = await repos.users.lock(input.userId);
    if (user === null) return err(authError(404, "user_not_found", "User not found"));
    let next: User = user;
    let changed = false;
    if (input.data) {
      next = { ...next, userMetadata: mergeMetadata(next.userMetadata, input.data) };
      changed = true;
    }

    const channels = await planChannels(deps, repos, next, { email: email.value, phone: phone.value }, now);
    if (!channels.ok) return channels;
    const { emailChange, phoneChange } = channels.value;
    next = channels.value.user;
    changed ||= emailChange.kind !== "none" || phoneChange.kind !== "none";
    if (password !== undefined) {
      const withPassword = await planPassword(deps, user, next, { password, nonce: input.nonce }, now);
      if (!withPassword.ok) return withPassword;
      next = withPassword.value;
      changed = true;
    }

    const identities = await repos.identities.listByUser(user.id);
    if (!changed) return ok({ ...user, identities });
    const applied = emailChange.kind === "applied" || phoneChange.kind === "applied";
    const synced = applied
      ? syncChannelIdentities(next, identities, { now, newId: () => deps.random.uuid() })
      : { identities, inserted: [], updated: [] };
    if (synced.inserted.length > 0) {
      next = { ...next, appMetadata: withProviders(next.appMetadata, synced.identities) };
    }
    next = { ...next, updatedAt: now };

    const updated = await repos.users.update(next);
    if (updated === "duplicate_email") return err(emailExists());
    if (updated === "duplicate_phone") return err(phoneExists());
    if (updated === "not_found") return err(authError(404, "user_not_found", "User not found"));
    for (const identity of synced.inserted) await repos.identities.insert(identity);
    for (const identity of synced.updated) await repos.identities.update(identity);
    const actor = { actorId: user.id, actorUsername: actorUsername(next), at: now };
    if (password !== undefined) {
      await repos.sessions.deleteForUser(user.id, input.sessionId ? { except: input.sessionId } : undefined);
      await repos.audit.record({ action: "user_updated_password", ...actor });
    }
    await repos.audit.record({ action: "user_modified", ...actor });
    // Last, inside the transaction: a mail that cannot be sent rolls the pending change back.
    if (emailChange.kind === "pending") {
      await deps.mailer.send({
        kind: "email_change",
        to: emailChange.address,
        newEmail: emailChange.address,
      });
    }
    return ok({ ...next, identities: synced.identities });
  });
}
