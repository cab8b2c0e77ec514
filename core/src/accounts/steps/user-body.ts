import type { AccountsRepositories } from "../deps.js";
import type { User, UserWithIdentities } from "../user.js";

/**
 * `user` with what every user body embeds: its identities and its second factors (auth-js reads
 * `user.factors` of a token response to tell whether the session can be raised to aal2). Read in one
 * step (`findWithIdentities`: one statement on Postgres); the user's own fields are the caller's.
 */
export async function userBody(
  repos: Pick<AccountsRepositories, "users">,
  user: User,
): Promise<UserWithIdentities> {
  const stored = await repos.users.findWithIdentities(user.id);
  return { ...user, identities: stored?.identities ?? [], factors: stored?.factors ?? [] };
}
