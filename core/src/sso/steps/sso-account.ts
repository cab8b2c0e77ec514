import {
  actorUsername,
  blankUser,
  createUser,
  type Identity,
  isBanned,
  mergeMetadata,
  type User,
} from "../../accounts/index.js";
import { FirstSignInRaceLost } from "../../external/index.js";
import { failures } from "../../failures.js";
import { beforeUserCreated, userToCreate } from "../../hooks/index.js";
import { err, ok, type Result } from "../../kernel/index.js";
import type { SsoDeps, SsoRepositories } from "../deps.js";

export interface SsoPerson {
  /** `sso:<provider id>`: each identity provider is its own linking domain. */
  readonly provider: string;
  /** The user ID the assertion names (`subject-id` or NameID). */
  readonly subject: string;
  readonly email: string;
  readonly identityData: Record<string, unknown>;
  readonly now: Date;
}

/** The new SSO user `person` would become (not stored): its address confirmed, the IdP vouches for it. */
function newSsoUser(deps: Pick<SsoDeps, "random" | "settings">, person: SsoPerson): User {
  const { provider, now } = person;
  return blankUser({
    id: deps.random.uuid(),
    aud: deps.settings.jwt.aud,
    role: deps.settings.jwt.defaultRole,
    createdAt: now,
    email: person.email,
    emailConfirmedAt: now,
    lastSignInAt: now,
    isSsoUser: true,
    userMetadata: person.identityData,
    appMetadata: { provider, providers: [provider] },
  });
}

/**
 * Before the transaction: when `person` has no identity of the provider yet (their sign-in creates an
 * account), has the before-user-created hook vet the user `ssoAccount` then creates, as every other
 * sign-up does (the reference's `triggerBeforeUserCreatedExternal`). Resolves the vetted user, null
 * (hook off, sign-ups off, or the person is known: signing in again is no sign-up), or the refusal.
 */
export async function vetSsoAccount(
  deps: Pick<SsoDeps, "random" | "settings" | "hooks" | "store">,
  person: SsoPerson,
): Promise<Result<User | null>> {
  if (!deps.hooks.enabled("before_user_created") || deps.settings.signup.disabled) return ok(null);
  if ((await deps.store.externalIdentities.findByProvider(person.provider, person.subject)) !== null) {
    return ok(null);
  }
  return beforeUserCreated(deps, newSsoUser(deps, person));
}

/**
 * The account a person signing in through an identity provider gets, inside the caller's transaction:
 * the user of the provider's identity with this subject (its data refreshed), or a new SSO user
 * (`is_sso_user`, address confirmed: the identity provider vouches for it). Never an account found by
 * email: SSO accounts are never linked to others, so an identity provider cannot take over an account
 * it does not own. A banned user: 403 `user_banned`. A concurrent first sign-in of the same person
 * that committed first makes this throw `FirstSignInRaceLost` (see `afterFirstSignInRaces`). A new
 * user is the one `vetSsoAccount` had the before-user-created hook vet (`vetted`), when it is on.
 */
export async function ssoAccount(
  deps: Pick<SsoDeps, "random" | "settings" | "hooks">,
  repos: Pick<SsoRepositories, "users" | "identities" | "externalIdentities" | "audit">,
  person: SsoPerson,
  vetted: User | null,
): Promise<Result<User>> {
  const { provider, subject, now } = person;
  const known = await repos.externalIdentities.findByProvider(provider, subject);
  if (known !== null) {
    const stored = await repos.users.lock(known.userId);
    if (stored === null) throw new FirstSignInRaceLost();
    if (isBanned(stored, now)) return err(failures.userBanned());
    await repos.identities.update({
      ...known,
      identityData: person.identityData,
      lastSignInAt: now,
      updatedAt: now,
    });
    const user = {
      ...stored,
      userMetadata: mergeMetadata(stored.userMetadata, person.identityData),
      lastSignInAt: now,
      updatedAt: now,
    };
    await repos.users.update(user);
    await repos.audit.record({
      action: "login",
      actorId: user.id,
      actorUsername: actorUsername(user),
      traits: { provider },
      at: now,
    });
    return ok(user);
  }
  if (deps.settings.signup.disabled) return err(failures.signupDisabled());
  const user = userToCreate(deps, vetted, () => newSsoUser(deps, person));
  const created = await createUser(deps, repos, user, { now, identities: [] });
  if (!created.created) throw new Error(`SSO sign-in: inserting a user reported ${created.clash}`);
  const identity: Identity = {
    id: deps.random.uuid(),
    providerId: subject,
    userId: user.id,
    provider,
    identityData: person.identityData,
    lastSignInAt: now,
    createdAt: now,
    updatedAt: now,
  };
  if (!(await repos.externalIdentities.insertUnlessKnown(identity))) throw new FirstSignInRaceLost();
  await repos.audit.record({
    action: "user_signedup",
    actorId: user.id,
    actorUsername: actorUsername(user),
    traits: { provider },
    at: now,
  });
  return ok(user);
}
