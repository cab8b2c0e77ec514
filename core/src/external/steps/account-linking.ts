import { confirmedAt, type Identity, type User } from "../../accounts/index.js";
import type { ExternalRepositories } from "../deps.js";
import type { ExternalEmail } from "../ports/external-provider.js";
import { DEFAULT_LINKING_DOMAIN, linkingDomainOf } from "../settings.js";

/** What to do with a person an external provider vouches for (the reference's `DetermineAccountLinking`). */
export type LinkingDecision =
  | { readonly kind: "exists"; readonly user: User; readonly identity: Identity; readonly email: string }
  | { readonly kind: "link"; readonly user: User; readonly email: string }
  | {
      readonly kind: "create";
      readonly email: string;
      readonly emailVerified: boolean;
      /** Outside the `default` linking domain: the account is the reference's `is_sso_user`. */
      readonly ownDomain: boolean;
    }
  | { readonly kind: "multiple"; readonly domain: string };

/**
 * Whether the account holding `user.email` may be found by it. A confirmed address was proven; an
 * account never confirmed at all is taken over and reset by the verified person (pre-account
 * takeover, `keepOnly`). An account confirmed otherwise (by phone, or an anonymous one) whose address
 * is not confirmed may hold an address it took from an identity the provider did not vouch for: that
 * address finds nobody. (An SSO user is never found by address: `findByEmail` answers none.)
 */
function foundByAddress(user: User): boolean {
  return user.emailConfirmedAt !== null || (confirmedAt(user) === null && !user.isAnonymous);
}

/**
 * Decides, inside the caller's transaction, between signing in (the provider's identity is known),
 * linking to the one account that owns one of the person's *verified* addresses (by an identity whose
 * address was verified, or by the user's email), and creating an account. An address the provider
 * does not vouch for never links, whatever `MAILER_AUTOCONFIRM` says (the reference links it under
 * autoconfirm): whoever controls an unverified address at a provider must not get into the account
 * that owns it. For the same reason an identity carrying an unverified address never finds its user.
 * A new account takes the primary address unless another account already has it (and, under
 * autoconfirm, only a verified one: `addressOfNewAccount`). Several accounts that hold the person's
 * verified addresses are `multiple`: no account is guessed, the sign-in is refused.
 *
 * Only identities of the provider's linking domain (`linkingDomainOf`) link: each SAML identity
 * provider is one of its own, so an address one asserts never leads another provider's person into
 * its account, and providers the configuration groups link among themselves only. An account found by
 * its address alone is one of the `default` domain (`findByEmail` answers no account of another). An
 * account created outside `default` is marked as the reference's `is_sso_user`: its address may be
 * another account's too, and no address finds it.
 */
export async function decideAccountLinking(
  repos: Pick<ExternalRepositories, "users" | "externalIdentities">,
  input: {
    provider: string;
    subject: string;
    emails: readonly ExternalEmail[];
    linkingDomains: Readonly<Record<string, string>>;
  },
): Promise<LinkingDecision> {
  const domain = linkingDomainOf(input.provider, input.linkingDomains);
  const inDomain = (identity: Identity) =>
    linkingDomainOf(identity.provider, input.linkingDomains) === domain;
  const ownDomain = domain !== DEFAULT_LINKING_DOMAIN;
  const primary = input.emails.find((e) => e.primary) ?? input.emails[0];
  const candidate = { email: primary?.email.toLowerCase() ?? "", verified: primary?.verified ?? false };
  const known = await repos.externalIdentities.findByProvider(input.provider, input.subject);
  if (known !== null) {
    const user = await repos.users.findById(known.userId);
    if (user === null) throw new Error(`identity ${known.id} has no user ${known.userId}`);
    return { kind: "exists", user, identity: known, email: user.email ?? "" };
  }
  const create = async (): Promise<LinkingDecision> => {
    // An account of its own domain may share an address (the unique index spares `is_sso_user` rows).
    const taken =
      !ownDomain && candidate.email !== "" && (await repos.users.findByEmail(candidate.email)) !== null;
    return {
      kind: "create",
      email: taken ? "" : candidate.email,
      emailVerified: candidate.verified,
      ownDomain,
    };
  };
  const verified = [...new Set(input.emails.filter((e) => e.verified).map((e) => e.email.toLowerCase()))];
  if (verified.length === 0) return create();
  const identities = (await repos.externalIdentities.listByVerifiedEmails(verified)).filter(inDomain);
  if (identities.length > 0) {
    const owners = new Set(identities.map((i) => i.userId));
    if (owners.size > 1) return { kind: "multiple", domain };
    const user = await repos.users.findById(identities[0]?.userId ?? "");
    if (user === null) throw new Error("an identity without its user");
    return { kind: "link", user, email: candidate.email };
  }
  if (ownDomain) return create();
  const users: User[] = [];
  for (const email of verified) {
    const user = await repos.users.findByEmail(email);
    if (user !== null && foundByAddress(user) && !users.some((u) => u.id === user.id)) users.push(user);
  }
  if (users.length > 1) return { kind: "multiple", domain };
  const [user] = users;
  return user ? { kind: "link", user, email: candidate.email } : create();
}
