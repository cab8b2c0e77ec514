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

/**
 * The account a person signing in through an identity provider gets, inside the caller's transaction:
 * the user of the provider's identity with this subject (its data refreshed), or a new SSO user
 * (`is_sso_user`, address confirmed: the identity provider vouches for it). Never an account found by
 * email: SSO accounts are never linked to others, so an identity provider cannot take over an account
 * it does not own. A banned user: 403 `user_banned`. A concurrent first sign-in of the same person
 * that committed first makes this throw `FirstSignInRaceLost` (see `afterFirstSignInRaces`).
 */
export async function ssoAccount(
  deps: Pick<SsoDeps, "random" | "settings">,
  repos: Pick<SsoRepositories, "users" | "identities" | "externalIdentities" | "audit">,
  person: SsoPerson,
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
  const user = blankUser({
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
