import type { Identity, User } from "../../accounts/index.js";
import type { OAuthRepositories } from "../deps.js";
import type { ExternalEmail } from "../ports/external-provider.js";

/** What to do with a person an external provider vouches for (the reference's `DetermineAccountLinking`). */
export type LinkingDecision =
  | { readonly kind: "exists"; readonly user: User; readonly identity: Identity; readonly email: string }
  | { readonly kind: "link"; readonly user: User; readonly email: string }
  | { readonly kind: "create"; readonly email: string; readonly emailVerified: boolean }
  | { readonly kind: "multiple" };

/**
 * Decides, inside the caller's transaction, between signing in (the provider's identity is known),
 * linking to the one account that owns one of the person's *verified* addresses (by an identity or
 * by the user's email), and creating an account. An address the provider does not vouch for never
 * links: whoever controls an unverified address at a provider must not get into the account that
 * owns it. A new account takes the primary address unless another account already has it.
 */
export async function decideAccountLinking(
  repos: Pick<OAuthRepositories, "users" | "externalIdentities">,
  input: { provider: string; subject: string; emails: readonly ExternalEmail[]; autoconfirm: boolean },
): Promise<LinkingDecision> {
  const primary = input.emails.find((e) => e.primary) ?? input.emails[0];
  const candidate = { email: primary?.email.toLowerCase() ?? "", verified: primary?.verified ?? false };
  const known = await repos.externalIdentities.findByProvider(input.provider, input.subject);
  if (known !== null) {
    const user = await repos.users.findById(known.userId);
    if (user === null) throw new Error(`identity ${known.id} has no user ${known.userId}`);
    return { kind: "exists", user, identity: known, email: user.email ?? "" };
  }
  const verified = [
    ...new Set(input.emails.filter((e) => e.verified || input.autoconfirm).map((e) => e.email.toLowerCase())),
  ];
  if (verified.length === 0) {
    const taken = candidate.email !== "" && (await repos.users.findByEmail(candidate.email)) !== null;
    return { kind: "create", email: taken ? "" : candidate.email, emailVerified: candidate.verified };
  }
  const identities = await repos.externalIdentities.listByEmails(verified);
  if (identities.length > 0) {
    const owners = new Set(identities.map((i) => i.userId));
    if (owners.size > 1) return { kind: "multiple" };
    const user = await repos.users.findById(identities[0]?.userId ?? "");
    if (user === null) throw new Error("an identity without its user");
    return { kind: "link", user, email: candidate.email };
  }
  const users: User[] = [];
  for (const email of verified) {
    const user = await repos.users.findByEmail(email);
    if (user !== null && !users.some((u) => u.id === user.id)) users.push(user);
  }
  if (users.length > 1) return { kind: "multiple" };
  const [user] = users;
  return user
    ? { kind: "link", user, email: candidate.email }
    : { kind: "create", email: candidate.email, emailVerified: candidate.verified };
}
