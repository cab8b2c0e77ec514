import type { User, UserWithIdentities } from "../accounts/index.js";
import {
  actorUsername,
  checkNewPassword,
  mergeMetadata,
  normalizeEmail,
  normalizePhone,
} from "../accounts/index.js";
import { failures } from "../failures.js";
import {
  type AuthError,
  constantTimeEqual,
  err,
  Outbox,
  ok,
  orRollback,
  type Result,
  resolveRedirect,
  transactionThenSend,
} from "../kernel/index.js";
import { notifyAccountChange } from "../messaging/index.js";
import type { PkceChallenge } from "../pkce/index.js";
import type { AccountSettingsDeps, AccountSettingsRepositories } from "./deps.js";
import { nonceLifetimeSeconds } from "./reauthenticate.js";
import { requestEmailChange } from "./request-email-change.js";
import { requestPhoneChange } from "./request-phone-change.js";

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
  /** Where the email change links lead (`redirect_to`); resolved against SITE_URL and the allow list. */
  readonly redirectTo?: string | undefined;
  /** A PKCE flow (`code_challenge`): the mailed link then yields a code for `POST /token?grant_type=pkce`. */
  readonly pkce?: PkceChallenge | null | undefined;
}

type Deps = Pick<
  AccountSettingsDeps,
  | "store"
  | "clock"
  | "random"
  | "tokens"
  | "hasher"
  | "leakedPasswords"
  | "mailer"
  | "sms"
  | "settings"
  | "deliveries"
>;

/** The fields of the user row this request sets itself (email and phone go through their own flows). */
type OwnChanges = Partial<Pick<User, "userMetadata" | "encryptedPassword" | "reauthenticationToken">>;

/**
 * The reauthentication check of a password update: the nonce sent by `GET /reauthenticate` must be
 * presented, match the stored hash and be younger than the lifetime of a code on the channel it went
 * by. Compared in constant time, so the stored hash cannot be guessed byte by byte.
 */
function checkNonce(deps: Deps, user: User, nonce: string | undefined, now: Date): AuthError | null {
  if (!nonce) return failures.reauthenticationNeeded();
  const sentAt = user.reauthenticationSentAt;
  const lifetimeMs = nonceLifetimeSeconds(deps.settings, user) * 1000;
  const valid =
    user.reauthenticationToken !== null &&
    sentAt !== null &&
    now.getTime() <= sentAt.getTime() + lifetimeMs &&
    constantTimeEqual(deps.tokens.hash(nonce), user.reauthenticationToken);
  if (valid) return null;
  return failures.reauthenticationNotValid();
}

/** The password fields to write, after the anonymous, reauthentication and same-password checks. */
async function planPassword(
  deps: Deps,
  user: User,
  input: { password: string; nonce: string | undefined; willHaveAddress: boolean },
  now: Date,
): Promise<Result<OwnChanges>> {
  // Only an address that is actually set counts: a pending one cannot be signed in with yet.
  if (user.isAnonymous && !input.willHaveAddress) {
    return err(failures.anonymousPasswordUpdate());
  }
  let changes: OwnChanges = {};
  if (deps.settings.updatePasswordRequiresReauthentication) {
    const failure = checkNonce(deps, user, input.nonce, now);
    if (failure) return err(failure);
    changes = { reauthenticationToken: null };
  }
  if (user.encryptedPassword !== null && (await deps.hasher.verify(user.encryptedPassword, input.password))) {
    return err(failures.samePassword());
  }
  return ok({ ...changes, encryptedPassword: await deps.hasher.hash(input.password) });
}

/** The refusal of a new address another user has, or null. */
async function addressTaken(
  repos: AccountSettingsRepositories,
  user: User,
  wanted: { email: string | null; phone: string | null },
): Promise<AuthError | null> {
  const emailOwner = wanted.email === null ? null : await repos.users.findByEmail(wanted.email);
  if (emailOwner !== null && emailOwner.id !== user.id) return failures.emailExists();
  const phoneOwner = wanted.phone === null ? null : await repos.users.findByPhone(wanted.phone);
  if (phoneOwner !== null && phoneOwner.id !== user.id) return failures.phoneExists();
  return null;
}

/**
 * The refusal of a change to what signs the user in (password, email, phone) by a session below aal2
 * when the user has a verified factor (reference `user.go`): else whoever has only the password could
 * take the account over, second factor or not. A token without a session is refused as well.
 */
async function mfaRequiresAal2(
  repos: AccountSettingsRepositories,
  userId: string,
  sessionId: string | null,
): Promise<AuthError | null> {
  const factors = await repos.factors.listByUser(userId);
  if (!factors.some((f) => f.status === "verified")) return null;
  const session = sessionId === null ? null : await repos.sessions.find(sessionId);
  return session?.aal === "aal2" ? null : failures.updateNeedsAal2();
}

/**
 * Updates the authenticated user (`PUT /user`): metadata, email, phone and password, in one
 * transaction with the user row locked; every refusal that does not depend on sending comes first.
 *
 * A new email goes through `requestEmailChange` (secure change: confirmations to the new and the
 * current address; applied at once under mailer autoconfirm), a new phone through `requestPhoneChange`
 * (an SMS code; applied at once under SMS autoconfirm). A new password must pass the policy, differ
 * from the current one and — when configured — come with a valid reauthentication nonce; it ends the
 * user's other sessions, since whoever held them may be the reason for the change. An anonymous user
 * may only set a password once they have an email or phone. A user with a verified second factor
 * changes password, email or phone only from an aal2 session (401 `insufficient_aal`). A message
 * that cannot be sent, or a
 * resend asked for too soon, undoes the whole update.
 */
export async function updateUser(deps: Deps, input: UpdateUserInput): Promise<Result<UserWithIdentities>> {
  const email = input.email ? normalizeEmail(input.email) : ok(null);
  if (!email.ok) return email;
  const phone = input.phone ? normalizePhone(input.phone) : ok(null);
  if (!phone.ok) return phone;
  const { password } = input;
  if (password !== undefined) {
    const policy = await checkNewPassword(deps, password);
    if (!policy.ok) return policy;
  }
  const now = deps.clock.now();
  const { siteUrl, uriAllowList, signup } = deps.settings;
  const redirectTo = resolveRedirect(input.redirectTo, { siteUrl, allowList: uriAllowList });

  const outbox = new Outbox<AccountSettingsRepositories>();
  /** What the committed update changed, for its notifications: the user before it, and whether the password. */
  let changes: { before: User; password: boolean } | null = null;
  const result = await transactionThenSend(
    deps.store,
    outbox,
    async (repos): Promise<Result<UserWithIdentities>> => {
      const user = await repos.users.lock(input.userId);
      if (user === null) return err(failures.userNotFound());
      const newEmail = email.value !== null && email.value !== user.email ? email.value : null;
      const newPhone = phone.value !== null && phone.value !== user.phone ? phone.value : null;
      // An SSO account's address and sign-in belong to its identity provider (reference user.go).
      if (user.isSsoUser === true && (password !== undefined || newEmail !== null || newPhone !== null)) {
        return err(failures.userSsoManaged());
      }
      if (password !== undefined || newEmail !== null || newPhone !== null) {
        const refused = await mfaRequiresAal2(repos, user.id, input.sessionId);
        if (refused) return err(refused);
      }
      const taken = await addressTaken(repos, user, { email: newEmail, phone: newPhone });
      if (taken) return err(taken);

      let own: OwnChanges = {};
      if (input.data) own = { userMetadata: mergeMetadata(user.userMetadata, input.data) };
      if (password !== undefined) {
        const willHaveAddress =
          user.email !== null ||
          user.phone !== null ||
          (newEmail !== null && signup.mailerAutoconfirm) ||
          (newPhone !== null && signup.smsAutoconfirm);
        const planned = await planPassword(
          deps,
          user,
          { password, nonce: input.nonce, willHaveAddress },
          now,
        );
        if (!planned.ok) return planned;
        own = { ...own, ...planned.value };
      }
      const changed = Object.keys(own).length > 0 || newEmail !== null || newPhone !== null;
      if (!changed) return ok({ ...user, identities: await repos.identities.listByUser(user.id) });

      let next = user;
      if (newEmail !== null) {
        next = orRollback(
          await requestEmailChange(deps, repos, {
            user: next,
            newEmail,
            redirectTo,
            now,
            outbox,
            pkce: input.pkce,
          }),
        );
      }
      if (newPhone !== null) {
        next = orRollback(await requestPhoneChange(deps, repos, { user: next, newPhone, now, outbox }));
      }
      next = { ...next, ...own, updatedAt: now };
      if ((await repos.users.update(next)) !== "updated") {
        throw new Error(`updateUser: user ${user.id} could not be updated`);
      }
      if (own.reauthenticationToken === null) {
        await repos.oneTimeTokens.deleteForUser(user.id, ["reauthentication_token"]);
      }
      if (newEmail !== null || newPhone !== null) {
        // A confirmation that does not leave takes the whole update back (the snapshot read at the
        // start), unless something else changed the user since.
        outbox.onUndo(async (undoRepos) => {
          const current = await undoRepos.users.lock(user.id);
          if (current?.updatedAt.getTime() === now.getTime()) await undoRepos.users.update(user);
        });
      }
      const actor = { actorId: user.id, actorUsername: actorUsername(next), at: now };
      if (password !== undefined) {
        await repos.sessions.deleteForUser(
          user.id,
          input.sessionId ? { except: input.sessionId } : undefined,
        );
        await repos.audit.record({ action: "user_updated_password", ...actor });
      }
      await repos.audit.record({ action: "user_modified", ...actor });
      changes = { before: user, password: password !== undefined };
      return ok({ ...next, identities: await repos.identities.listByUser(user.id) });
    },
  );
  if (result.ok && changes !== null) await notifyUpdate(deps, changes, result.value, now);
  return result;
}

/**
 * The notifications of a committed update: the password, and an address applied at once (under
 * autoconfirm; a confirmed change is notified by `/verify`).
 */
async function notifyUpdate(
  deps: Deps,
  changes: { before: User; password: boolean },
  after: User,
  now: Date,
): Promise<void> {
  const { before } = changes;
  if (changes.password)
    await notifyAccountChange(deps, after, { kind: "password_changed_notification" }, now);
  if (before.email !== null && after.email !== before.email) {
    await notifyAccountChange(
      deps,
      after,
      { kind: "email_changed_notification", oldEmail: before.email },
      now,
    );
  }
  if (after.phone !== before.phone) {
    await notifyAccountChange(
      deps,
      after,
      { kind: "phone_changed_notification", oldPhone: before.phone ?? "" },
      now,
    );
  }
}
