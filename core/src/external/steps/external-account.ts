import {
  actorUsername,
  blankUser,
  confirmedAt,
  createUser,
  type Identity,
  isBanned,
  mergeMetadata,
  type User,
  withProviders,
} from "../../accounts/index.js";
import { failures } from "../../failures.js";
import { beforeUserCreated, userToCreate } from "../../hooks/index.js";
import { err, type Outbox, ok, orRollback, type Result } from "../../kernel/index.js";
import { sendEmailToken, undoCreationWith } from "../../messaging/index.js";
import type { ExternalDeps, ExternalRepositories } from "../deps.js";
import type { ExternalUser } from "../ports/external-provider.js";
import { decideAccountLinking } from "./account-linking.js";
import { FirstSignInRaceLost } from "./first-sign-in-race.js";

type Deps = Pick<ExternalDeps, "store" | "clock" | "random" | "tokens" | "mailer" | "settings"> &
  Partial<Pick<ExternalDeps, "hooks">>;

export interface ExternalAccountInput {
  readonly provider: string;
  readonly person: ExternalUser;
  /** Where a confirmation mail's link leads (the flow's redirect). */
  readonly redirectTo: string;
  readonly now: Date;
  /** Where a confirmation mail waits until the caller's transaction has committed (`transactionThenSend`). */
  readonly outbox: Outbox<ExternalRepositories>;
  /** The new user `vetExternalAccount` had the before-user-created hook vet, if any. */
  readonly vetted?: User | null;
  /**
   * The provider never reports an address (Web3): the identity alone opens the account, with no
   * address to confirm, as the reference's `hasEmails` is false for it.
   */
  readonly addressless?: boolean;
}

/** A new account for a person signing in with `provider` (not stored). */
function newExternalUser(
  deps: Pick<Deps, "random" | "settings">,
  decision: { readonly email: string; readonly ownDomain: boolean },
  input: Pick<ExternalAccountInput, "provider" | "person" | "now">,
): User {
  const { settings } = deps;
  const { email } = decision;
  return blankUser({
    id: deps.random.uuid(),
    aud: settings.jwt.aud,
    role: settings.jwt.defaultRole,
    createdAt: input.now,
    email: email === "" ? null : email,
    userMetadata: input.person.identityData,
    appMetadata: { provider: input.provider, providers: [input.provider] },
    // Outside the `default` linking domain, as the reference: its address may be another account's too.
    ...(decision.ownDomain ? { isSsoUser: true } : {}),
  });
}

/**
 * The address a new account takes: the linking decision's candidate (`""`: none). Under mailer
 * autoconfirm no mail will ever prove it, so an address the provider did not verify is left out: kept
 * (confirmed, as autoconfirm confirms the account), it would make the person's sign-up answer
 * `user_already_exists` and lead their later verified sign-in into this account (pre-account
 * takeover). The address stays in the identity's data, with `email_verified: false`.
 */
function addressOfNewAccount(
  settings: Deps["settings"],
  decision: { readonly email: string; readonly emailVerified: boolean },
): string {
  return decision.emailVerified || !settings.signup.mailerAutoconfirm ? decision.email : "";
}

/**
 * Before the transaction: when the person's sign-in would create an account (the linking decision,
 * taken again inside the transaction), has the before-user-created hook vet it, as the reference
 * does (`triggerBeforeUserCreatedExternal`). Resolves the vetted user, null, or the hook's refusal.
 */
export async function vetExternalAccount(
  deps: Deps,
  input: Pick<ExternalAccountInput, "provider" | "person" | "now">,
): Promise<Result<User | null>> {
  if (deps.hooks?.enabled("before_user_created") !== true || deps.settings.signup.disabled) return ok(null);
  const decision = await decideAccountLinking(deps.store, {
    provider: input.provider,
    subject: input.person.subject,
    emails: input.person.emails,
    linkingDomains: deps.settings.providerLinkingDomains,
  });
  if (decision.kind !== "create") return ok(null);
  const email = addressOfNewAccount(deps.settings, decision);
  return beforeUserCreated(deps, newExternalUser(deps, { email, ownDomain: decision.ownDomain }, input));
}

/** A new identity of `provider` for `userId`. */
export function newIdentity(
  deps: Pick<ExternalDeps, "random">,
  userId: string,
  input: Pick<ExternalAccountInput, "provider" | "person" | "now">,
): Identity {
  return {
    id: deps.random.uuid(),
    providerId: input.person.subject,
    userId,
    provider: input.provider,
    identityData: input.person.identityData,
    lastSignInAt: input.now,
    createdAt: input.now,
    updatedAt: input.now,
  };
}

/** `user` with the identity's data merged into `user_metadata` and `app_metadata.providers` recomputed. */
async function refreshed(
  repos: ExternalRepositories,
  user: User,
  data: ExternalUser["identityData"],
  now: Date,
) {
  const identities = await repos.identities.listByUser(user.id);
  return {
    ...user,
    userMetadata: mergeMetadata(user.userMetadata, data),
    appMetadata: withProviders(user.appMetadata, identities),
    updatedAt: now,
  };
}

/**
 * The account a person signing in with an external provider gets, inside the caller's transaction
 * (the reference's `createAccountFromExternalIdentity`): the known identity's user (identity data
 * refreshed), the account that owns one of the person's verified addresses (identity linked), or a
 * new account (unless sign-ups are disabled: 422 `signup_disabled`). A banned user: 403 `user_banned`.
 *
 * An account that was never confirmed cannot be trusted to belong to this person: someone may have
 * signed up with their address beforehand (pre-account takeover). Its other identities, password,
 * sessions and metadata are dropped, so only this identity opens it. It is then confirmed when the
 * provider vouches for its address; under mailer autoconfirm it is confirmed without an address the
 * provider did not vouch for; else a confirmation mail is sent and the sign-in is refused with 422
 * `provider_email_needs_verification`, returned so the changes commit (the mail leaves once they
 * have; if it cannot, a user this sign-in created is removed again). Several accounts holding the
 * person's verified addresses: 422 `email_exists` (none is guessed).
 *
 * When a concurrent first sign-in of the same person created the identity (or took the address)
 * first, this throws `FirstSignInRaceLost`, rolling back what it wrote; the caller runs it again in a
 * new transaction (`afterFirstSignInRaces`), which then finds the winner's identity.
 */
export async function externalAccount(
  deps: Deps,
  repos: ExternalRepositories,
  input: ExternalAccountInput,
): Promise<Result<User>> {
  const { provider, person, now } = input;
  const { settings } = deps;
  const decision = await decideAccountLinking(repos, {
    provider,
    subject: person.subject,
    emails: person.emails,
    linkingDomains: settings.providerLinkingDomains,
  });
  let user: User;
  let identity: Identity;
  let isNew = false;
  switch (decision.kind) {
    case "multiple":
      return err(failures.multipleAccounts(decision.domain));
    case "exists": {
      identity = {
        ...decision.identity,
        identityData: person.identityData,
        lastSignInAt: now,
        updatedAt: now,
      };
      await repos.identities.update(identity);
      user = await refreshed(repos, decision.user, person.identityData, now);
      break;
    }
    case "link": {
      identity = newIdentity(deps, decision.user.id, input);
      if (!(await repos.externalIdentities.insertUnlessKnown(identity))) throw new FirstSignInRaceLost();
      user = await refreshed(repos, decision.user, person.identityData, now);
      await repos.audit.record({
        action: "identity_linked",
        actorId: user.id,
        actorUsername: actorUsername(user),
        traits: { identity_id: identity.id, provider, provider_id: identity.providerId },
        at: now,
      });
      break;
    }
    case "create": {
      if (settings.signup.disabled) return err(failures.signupDisabled());
      user = userToCreate(deps, input.vetted ?? null, () =>
        newExternalUser(
          deps,
          { email: addressOfNewAccount(settings, decision), ownDomain: decision.ownDomain },
          input,
        ),
      );
      identity = newIdentity(deps, user.id, input);
      const created = await createUser(deps, repos, user, { now, identities: [] });
      // The address was free when decided on: a concurrent first sign-in of this person took it since.
      if (!created.created && created.clash === "duplicate_email") throw new FirstSignInRaceLost();
      if (!created.created) throw new Error(`external sign-in: inserting a user reported ${created.clash}`);
      if (!(await repos.externalIdentities.insertUnlessKnown(identity))) throw new FirstSignInRaceLost();
      isNew = true;
      break;
    }
  }
  if (isBanned(user, now)) return err(failures.userBanned());
  if (confirmedAt(user) !== null || input.addressless === true) {
    await repos.users.update(user);
    await repos.audit.record({
      action: isNew && input.addressless === true ? "user_signedup" : "login",
      actorId: user.id,
      actorUsername: actorUsername(user),
      traits: { provider },
      at: now,
    });
    return ok(user);
  }
  user = await keepOnly(repos, user, identity, now);
  // Only the address this sign-in's provider verified is proven: not one the account took earlier
  // from this or another identity (whose provider may since report another address, verified).
  const address = user.email;
  const emailVerified =
    address !== null &&
    person.emails.some((e) => e.verified && e.email.toLowerCase() === address.toLowerCase());
  if (emailVerified || settings.signup.mailerAutoconfirm) {
    // Autoconfirm opens the account without a mail, but vouches for no address: an unproven one is
    // dropped rather than confirmed (see `addressOfNewAccount`).
    user = { ...user, email: emailVerified ? address : null, emailConfirmedAt: now };
    await repos.users.update(user);
    await repos.audit.record({
      action: "user_signedup",
      actorId: user.id,
      actorUsername: actorUsername(user),
      traits: { provider },
      at: now,
    });
    return ok(user);
  }
  if (address !== null) {
    user = { ...user, confirmationSentAt: now };
    await repos.users.update(user);
    if (isNew) undoCreationWith(input.outbox, user.id);
    orRollback(
      await sendEmailToken(deps, repos, {
        user,
        tokenType: "confirmation_token",
        mailKind: "confirmation",
        verifyType: "signup",
        to: address,
        redirectTo: input.redirectTo,
        now,
        outbox: input.outbox,
      }),
    );
  } else {
    await repos.users.update(user);
  }
  return err(failures.providerEmailNeedsVerification(provider));
}

/**
 * Drops from an unconfirmed account everything but `identity`: other identities, a password that
 * came with no proven address, its sessions, and metadata written before (reference
 * `RemoveUnconfirmedIdentities`).
 */
async function keepOnly(
  repos: ExternalRepositories,
  user: User,
  identity: Identity,
  now: Date,
): Promise<User> {
  for (const other of await repos.identities.listByUser(user.id)) {
    if (other.id !== identity.id) await repos.externalIdentities.delete(other.id);
  }
  await repos.sessions.deleteForUser(user.id);
  return {
    ...user,
    encryptedPassword:
      identity.provider === "email" || identity.provider === "phone" ? user.encryptedPassword : null,
    userMetadata: identity.identityData,
    appMetadata: withProviders(user.appMetadata, [identity]),
    updatedAt: now,
  };
}
