import { actorUsername, type User, withProviders } from "../../accounts/index.js";
import { failures } from "../../failures.js";
import { err, type Outbox, ok, orRollback, type Result } from "../../kernel/index.js";
import { sendEmailToken } from "../../messaging/index.js";
import type { ExternalDeps, ExternalRepositories } from "../deps.js";
import type { ExternalUser } from "../ports/external-provider.js";
import { newIdentity } from "./external-account.js";

/**
 * Links the provider's identity to the signed-in `targetId` (manual linking), inside the caller's
 * transaction: an identity already linked (to this user or another) is 422 `identity_already_exists`.
 * A user without an email takes the identity's; if the provider does not vouch for it (whatever
 * `MAILER_AUTOCONFIRM` says), a confirmation is mailed (from `input.outbox`, once the caller's transaction has committed) and the answer is 422
 * `email_not_confirmed` (returned: the link commits).
 */
export async function linkIdentityToUser(
  deps: Pick<ExternalDeps, "store" | "clock" | "random" | "tokens" | "mailer" | "settings">,
  repos: ExternalRepositories,
  input: {
    targetId: string;
    provider: string;
    person: ExternalUser;
    redirectTo: string;
    now: Date;
    outbox: Outbox<ExternalRepositories>;
  },
): Promise<Result<User>> {
  const { provider, person, now } = input;
  const target = await repos.users.lock(input.targetId);
  if (target === null) return err(failures.linkingTargetMissing());
  const alreadyLinked = async () => {
    const existing = await repos.externalIdentities.findByProvider(provider, person.subject);
    if (existing === null) return null;
    return err(
      existing.userId === target.id ? failures.identityAlreadyLinked() : failures.identityLinkedToAnother(),
    );
  };
  const linked = await alreadyLinked();
  if (linked !== null) return linked;
  const identity = newIdentity(deps, target.id, input);
  if (!(await repos.externalIdentities.insertUnlessKnown(identity))) {
    // A concurrent link or sign-in of this identity committed it meanwhile: answer as if it came first.
    const winner = await alreadyLinked();
    if (winner !== null) return winner;
    throw new Error(`identity ${provider}/${person.subject} clashed with one that is gone`);
  }
  await repos.audit.record({
    action: "identity_linked",
    actorId: target.id,
    actorUsername: actorUsername(target),
    traits: { identity_id: identity.id, provider, provider_id: identity.providerId },
    at: now,
  });
  let user: User = {
    ...target,
    appMetadata: withProviders(target.appMetadata, await repos.identities.listByUser(target.id)),
    updatedAt: now,
  };
  const primary = person.emails[0];
  if (user.email === null && primary !== undefined) {
    const owner = await repos.users.findByEmail(primary.email.toLowerCase());
    if (owner !== null) return err(failures.emailExists());
    user = { ...user, email: primary.email.toLowerCase() };
    // Mailer autoconfirm does not vouch for it: an address the provider did not verify, confirmed
    // here, would later let a verified sign-in with that address into this account.
    if (!primary.verified) {
      // An account confirmed without an address (mailer autoconfirm, `externalAccount`) must not
      // pass its confirmation on to this one: the address stays unconfirmed until the mail proves it.
      user = { ...user, emailConfirmedAt: null, confirmationSentAt: now };
      await repos.users.update(user);
      orRollback(
        await sendEmailToken(deps, repos, {
          user,
          tokenType: "confirmation_token",
          mailKind: "confirmation",
          verifyType: "signup",
          to: primary.email.toLowerCase(),
          redirectTo: input.redirectTo,
          now,
          outbox: input.outbox,
        }),
      );
      return err(failures.linkedEmailNeedsVerification(provider));
    }
    // A proven address makes an anonymous user a permanent one.
    user = { ...user, emailConfirmedAt: user.emailConfirmedAt ?? now, isAnonymous: false };
  }
  await repos.users.update(user);
  return ok(user);
}
