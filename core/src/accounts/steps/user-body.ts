import type { AccountsRepositories } from "../deps.js";
import type { User, UserWithIdentities } from "../user.js";

/**
 * `user` with what every user body embeds: its identities and its second factors (auth-js reads
 * `user.factors` of a token response to tell whether the session can be raised to aal2).
 */
export async function userBody(
  repos: Pick<AccountsRepositories, "identities" | "factors">,
  user: User,
): Promise<UserWithIdentities> {
  // One after the other: inside a transaction, statements of one connection are awaited in turn.
  const identities = await repos.identities.listByUser(user.id);
  const factors = await repos.factors.listByUser(user.id);
  return { ...user, identities, factors };
}
