import {
  actorUsername,
  blankUser,
  checkNewPassword,
  createUser,
  lockUserByAddress,
  type Metadata,
  mergeMetadata,
  normalizeEmail,
  type User,
  type UserWithIdentities,
} from "../accounts/index.js";
import { failures } from "../failures.js";
import { userToCreate, vetNewUser } from "../hooks/index.js";
import {
  err,
  ok,
  orRollback,
  type Result,
  resolveRedirect,
  transactionRollingBackOn,
} from "../kernel/index.js";
import type { OneTimeTokenType, TokenMailKind } from "../messaging/index.js";
import { type EmailVerifyType, sendEmailToken } from "../messaging/index.js";
import type { AdminDeps, AdminRepositories } from "./deps.js";

const TYPES = [
  "signup",
  "magiclink",
  "recovery",
  "invite",
  "email_change_current",
  "email_change_new",
] as const;
export type GenerateLinkType = (typeof TYPES)[number];

export interface GenerateLinkInput {
  readonly actor: { readonly role: string };
  /** One of `GenerateLinkType`; anything else is refused (400). */
  readonly type: string;
  readonly email: string;
  /** Required for the email change types. */
  readonly newEmail?: string | undefined;
  /** For `signup` of a new user (required there, as by the reference). */
  readonly password?: string | undefined;
  /** `user_metadata` of a new user (merged into an unconfirmed one's for `signup`). */
  readonly data?: Readonly<Record<string, unknown>> | null | undefined;
  readonly redirectTo?: string | undefined;
}

/** The action link response, before JSON (`action_link`, `email_otp`, `hashed_token`, …). */
export interface ActionLink {
  readonly user: UserWithIdentities;
  readonly actionLink: string;
  readonly emailOtp: string;
  /** The link token, as `/verify` accepts it in `token_hash`. */
  readonly hashedToken: string;
  readonly verificationType: GenerateLinkType;
  readonly redirectTo: string;
}

type Deps = Pick<
  AdminDeps,
  "store" | "clock" | "random" | "tokens" | "hasher" | "leakedPasswords" | "mailer" | "settings"
> &
  Partial<Pick<AdminDeps, "hooks">>;

/** The token a link of each type carries and how it is verified. */
const LINKS: Readonly<
  Record<
    GenerateLinkType,
    { tokenType: OneTimeTokenType; mailKind: TokenMailKind; verifyType: EmailVerifyType }
  >
> = {
  signup: { tokenType: "confirmation_token", mailKind: "confirmation", verifyType: "signup" },
  invite: { tokenType: "confirmation_token", mailKind: "invite", verifyType: "invite" },
  magiclink: { tokenType: "recovery_token", mailKind: "magic_link", verifyType: "magiclink" },
  recovery: { tokenType: "recovery_token", mailKind: "recovery", verifyType: "recovery" },
  email_change_current: {
    tokenType: "email_change_token_current",
    mailKind: "email_change",
    verifyType: "email_change",
  },
  email_change_new: {
    tokenType: "email_change_token_new",
    mailKind: "email_change",
    verifyType: "email_change",
  },
};

const isType = (type: string): type is GenerateLinkType => (TYPES as readonly string[]).includes(type);

interface Plan {
  /** The new user the before-user-created hook vetted (before the transaction), if any. */
  readonly vetted?: User | null;
  readonly type: GenerateLinkType;
  readonly email: string;
  readonly newEmail: string | null;
  readonly passwordHash: string | null;
  readonly data: Metadata | null;
  readonly actor: { readonly role: string };
  readonly now: Date;
}

/**
 * Builds an email action link for an admin (`POST /admin/generate_link`) and sends nothing: the link,
 * its code and token are answered instead, and no email quota is taken. Only hashes are stored.
 *
 * - `signup`: creates the user (the password is required and checked; `data` becomes its metadata), or
 *   refreshes the confirmation of an unconfirmed one; a confirmed address → 422 `email_exists`.
 * - `invite`: invites a new or unconfirmed address (`invited_at`); a confirmed one → 422.
 * - `magiclink`: for an unknown address becomes a `signup` without password (`verification_type`
 *   `signup`), as the reference does. `recovery`: unknown address → 404 `user_not_found`.
 * - `email_change_current` / `email_change_new`: `newEmail` required (400), records it as the pending
 *   change and links the current or the new address (`type=email_change`); the current one only under
 *   secure email change (else 400). A second call for the same change keeps the other address's token
 *   live, so links generated for both addresses both have to be followed.
 *
 * `redirectTo` is resolved against SITE_URL and `URI_ALLOW_LIST` (silently SITE_URL otherwise).
 */
export async function generateLink(deps: Deps, input: GenerateLinkInput): Promise<Result<ActionLink>> {
  const { type } = input;
  if (!isType(type)) {
    return err(failures.linkTypeInvalid(type));
  }
  const email = normalizeEmail(input.email);
  if (!email.ok) return email;
  let newEmail: string | null = null;
  if (type === "email_change_current" || type === "email_change_new") {
    if (type === "email_change_current" && !deps.settings.mailer.secureEmailChange) {
      return err(failures.linkNeedsSecureEmailChange());
    }
    const normalized = normalizeEmail(input.newEmail ?? "");
    if (!normalized.ok) return normalized;
    newEmail = normalized.value;
  }
  let passwordHash: string | null = null;
  if (type === "signup" && input.password) {
    const policy = await checkNewPassword(deps, input.password);
    if (!policy.ok) return policy;
    passwordHash = await deps.hasher.hash(input.password);
  }
  const { siteUrl, uriAllowList } = deps.settings;
  const redirectTo = resolveRedirect(input.redirectTo, { siteUrl, allowList: uriAllowList });
  const now = deps.clock.now();
  const data = input.data ?? null;
  const common = { email: email.value, newEmail, passwordHash, data, actor: input.actor, now };
  // A link that may create a user: the before-user-created hook vets it before the transaction.
  const mayCreate = type === "signup" || type === "invite" || type === "magiclink";
  const vetted = mayCreate
    ? await vetNewUser(
        deps,
        async () => (await deps.store.users.findByEmail(email.value)) !== null,
        () => newEmailUser(deps, { ...common, type }, type === "invite"),
      )
    : ok(null);
  if (!vetted.ok) return vetted;
  const base = { ...common, vetted: vetted.value };

  return transactionRollingBackOn(deps.store, async (repos): Promise<Result<ActionLink>> => {
    const existing = await lockUserByAddress(repos.users, "email", email.value);
    let plan: Plan = { ...base, type };
    if (existing === null && type === "magiclink") {
      // The reference signs an unknown address up instead, with a password nobody knows (here: none).
      plan = { ...plan, type: "signup" };
    } else if (existing === null && type !== "signup" && type !== "invite") {
      return err(failures.userWithEmailNotFound());
    }
    const prepared = await prepareUser(deps, repos, existing, plan, type === "magiclink");
    if (!prepared.ok) return prepared;
    const user = prepared.value;
    const link = LINKS[plan.type];
    const token = orRollback(
      await sendEmailToken(deps, repos, {
        user,
        ...link,
        to: plan.type === "email_change_new" && newEmail !== null ? newEmail : email.value,
        ...(newEmail !== null ? { newEmail } : {}),
        redirectTo,
        now,
        send: false,
      }),
    );
    const identities = await repos.identities.listByUser(user.id);
    return ok({
      user: { ...user, identities },
      actionLink: token.actionLink,
      emailOtp: token.otp,
      hashedToken: token.hashedToken,
      verificationType: plan.type,
      redirectTo,
    });
  });
}

/** Creates or updates the user the link is for, with the audit entries of its type. */
async function prepareUser(
  deps: Pick<AdminDeps, "random" | "settings"> & Partial<Pick<AdminDeps, "hooks">>,
  repos: AdminRepositories,
  existing: User | null,
  plan: Plan,
  fromMagicLink: boolean,
): Promise<Result<User>> {
  const { now } = plan;
  const audit = (action: "user_signedup" | "user_invited", user: User) =>
    repos.audit.record({
      action,
      actorId: "",
      actorUsername: plan.actor.role,
      traits: { user_id: user.id, user_email: user.email ?? "" },
      at: now,
    });
  switch (plan.type) {
    case "signup":
    case "invite": {
      const invite = plan.type === "invite";
      if (existing === null) {
        if (!invite && !fromMagicLink && plan.passwordHash === null) {
          return err(failures.signupPasswordRequired());
        }
        const created = await createEmailUser(deps, repos, plan, invite);
        if (created.ok) await audit(invite ? "user_invited" : "user_signedup", created.value);
        return created;
      }
      if (existing.emailConfirmedAt !== null) return err(failures.emailExists());
      const metadata =
        !invite && plan.data ? mergeMetadata(existing.userMetadata, plan.data) : existing.userMetadata;
      const user: User = {
        ...existing,
        userMetadata: metadata,
        confirmationSentAt: now,
        ...(invite ? { invitedAt: now } : {}),
        updatedAt: now,
      };
      await save(repos, user);
      if (invite) await audit("user_invited", user);
      return ok(user);
    }
    case "magiclink":
    case "recovery": {
      const user = existingOrThrow(existing);
      const updated: User =
        plan.type === "magiclink" ? { ...user, magicLinkSentAt: now } : { ...user, recoverySentAt: now };
      await save(repos, updated);
      await repos.audit.record({
        action: "user_recovery_requested",
        actorId: user.id,
        actorUsername: actorUsername(user),
        at: now,
      });
      return ok(updated);
    }
    case "email_change_current":
    case "email_change_new": {
      const user = existingOrThrow(existing);
      const newEmail = plan.newEmail ?? "";
      const owner = await repos.users.findByEmail(newEmail);
      if (owner !== null && owner.id !== user.id) return err(failures.emailExists());
      // A token of another pending change would otherwise count as an outstanding confirmation.
      if (user.emailChange !== newEmail) {
        await repos.oneTimeTokens.deleteForUser(user.id, [
          "email_change_token_new",
          "email_change_token_current",
        ]);
      }
      const updated: User = { ...user, emailChange: newEmail, emailChangeSentAt: now, updatedAt: now };
      await save(repos, updated);
      return ok(updated);
    }
  }
}

function existingOrThrow(user: User | null): User {
  if (user === null) throw new Error("generateLink: no user for a type that requires one");
  return user;
}

async function save(repos: AdminRepositories, user: User): Promise<void> {
  const updated = await repos.users.update(user);
  if (updated !== "updated") throw new Error(`generateLink: updating ${user.id} reported ${updated}`);
}

/** A new, unconfirmed email user (not stored). */
function newEmailUser(deps: Pick<AdminDeps, "random" | "settings">, plan: Plan, invite: boolean): User {
  const { now } = plan;
  return blankUser({
    id: deps.random.uuid(),
    aud: deps.settings.jwt.aud,
    role: deps.settings.jwt.defaultRole,
    createdAt: now,
    email: plan.email,
    encryptedPassword: invite ? null : plan.passwordHash,
    // Stored exactly as given: the official client compares it with `toEqual`.
    userMetadata: plan.data ?? {},
    appMetadata: { provider: "email", providers: ["email"] },
    confirmationSentAt: now,
    invitedAt: invite ? now : null,
  });
}

/** A new, unconfirmed email user with its email identity. */
async function createEmailUser(
  deps: Pick<AdminDeps, "random" | "settings"> & Partial<Pick<AdminDeps, "hooks">>,
  repos: AdminRepositories,
  plan: Plan,
  invite: boolean,
): Promise<Result<User>> {
  const { now } = plan;
  const user = userToCreate(deps, plan.vetted ?? null, () => newEmailUser(deps, plan, invite));
  const inserted = await createUser(deps, repos, user, { now });
  // A concurrent sign-up may have taken the address since the lookup.
  if (!inserted.created && inserted.clash === "duplicate_email") return err(failures.emailExists());
  if (!inserted.created) throw new Error(`generateLink: inserting ${user.id} reported ${inserted.clash}`);
  return ok(user);
}
