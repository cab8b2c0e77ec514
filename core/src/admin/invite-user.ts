import {
  blankUser,
  createUser,
  lockUserByAddress,
  normalizeEmail,
  type User,
  type UserWithIdentities,
} from "../accounts/index.js";
import { failures } from "../failures.js";
import { userToCreate, vetNewUser } from "../hooks/index.js";
import {
  err,
  Outbox,
  ok,
  orRollback,
  type Result,
  resolveRedirect,
  transactionThenSend,
} from "../kernel/index.js";
import { sendEmailToken } from "../messaging/index.js";
import type { AdminDeps, AdminRepositories } from "./deps.js";

/**
 * Invites someone by email for an admin (`POST /invite`) and mails them the invitation.
 *
 * A new address becomes an unconfirmed user without a password, with `invited_at` set, `data` as its
 * `user_metadata` (exactly) and an email identity. An address whose user has not confirmed it yet
 * (invited or signed up) is invited again; a confirmed one is refused with 422 `email_exists`, since
 * accepting the invitation would hand that account to whoever holds the mailbox link. The mail is sent
 * once the transaction has committed, and before the answer: a mail that cannot be sent (an
 * `email_send_failed` error, or the hourly cap's 429 `over_email_send_rate_limit`) removes the user
 * this request created, or the link it stored for an existing one.
 * The mail carries an `invite` link (to `redirectTo` when allowed, else SITE_URL) and a code.
 * `actor.role` is the admin token's role, recorded as the actor's name.
 */
export async function inviteUser(
  deps: Pick<AdminDeps, "store" | "clock" | "random" | "tokens" | "mailer" | "settings"> &
    Partial<Pick<AdminDeps, "hooks">>,
  input: {
    actor: { role: string };
    email: string;
    data?: Readonly<Record<string, unknown>> | null;
    redirectTo?: string;
  },
): Promise<Result<UserWithIdentities>> {
  const normalized = normalizeEmail(input.email);
  if (!normalized.ok) return normalized;
  const email = normalized.value;
  const now = deps.clock.now();

  const redirectTo = resolveRedirect(input.redirectTo, {
    siteUrl: deps.settings.siteUrl,
    allowList: deps.settings.uriAllowList,
  });

  const build = () =>
    blankUser({
      id: deps.random.uuid(),
      aud: deps.settings.jwt.aud,
      role: deps.settings.jwt.defaultRole,
      createdAt: now,
      email,
      invitedAt: now,
      confirmationSentAt: now,
      userMetadata: input.data ?? {},
      appMetadata: { provider: "email", providers: ["email"] },
    });
  // The before-user-created hook vets a new invitee before the transaction, as for a sign-up.
  const vetted = await vetNewUser(
    deps,
    async () => (await deps.store.users.findByEmail(email)) !== null,
    build,
  );
  if (!vetted.ok) return vetted;

  // Sent before the answer: an admin may learn whether the mail left (`email_send_failed`).
  const outbox = new Outbox<AdminRepositories>();
  return transactionThenSend(deps.store, outbox, async (repos): Promise<Result<UserWithIdentities>> => {
    const existing = await lockUserByAddress(repos.users, "email", email);
    let user: User;
    let identities: UserWithIdentities["identities"];
    if (existing) {
      if (existing.emailConfirmedAt !== null) return err(failures.emailExists());
      user = { ...existing, invitedAt: now, confirmationSentAt: now, updatedAt: now };
      await repos.users.update(user);
      identities = await repos.identities.listByUser(user.id);
    } else {
      user = userToCreate(deps, vetted.value, build);
      const inserted = await createUser(deps, repos, user, { now });
      // A concurrent sign-up may have taken the address since the lookup.
      if (!inserted.created && inserted.clash === "duplicate_email") return err(failures.emailExists());
      if (!inserted.created) throw new Error(`inviting ${user.id}: unexpected ${inserted.clash}`);
      identities = [...inserted.identities];
      const created = user.id;
      outbox.onUndo(async (undoRepos) => void (await undoRepos.users.delete(created)));
    }
    await repos.audit.record({
      action: "user_invited",
      actorId: "",
      actorUsername: input.actor.role,
      traits: { user_id: user.id, user_email: email },
      at: now,
    });
    orRollback(
      await sendEmailToken(deps, repos, {
        user,
        tokenType: "confirmation_token",
        mailKind: "invite",
        verifyType: "invite",
        to: email,
        redirectTo,
        now,
        outbox,
      }),
    );
    return ok({ ...user, identities });
  });
}
