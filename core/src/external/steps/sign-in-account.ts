import type { User } from "../../accounts/index.js";
import type { Result } from "../../kernel/index.js";
import type { ExternalRepositories } from "../deps.js";
import { type ExternalAccountInput, externalAccount } from "./external-account.js";
import { linkIdentityToUser } from "./link-identity.js";

/**
 * The account a sign-in with an external provider opens, inside the caller's transaction: when a
 * signed-in user links (`linkTargetId`), theirs with the identity linked (`linkIdentityToUser`); else
 * the person's own (`externalAccount`).
 */
export function signInAccount(
  deps: Parameters<typeof externalAccount>[0],
  repos: ExternalRepositories,
  input: ExternalAccountInput & { readonly linkTargetId: string | null },
): Promise<Result<User>> {
  const { linkTargetId, ...account } = input;
  if (linkTargetId === null) return externalAccount(deps, repos, account);
  return linkIdentityToUser(deps, repos, { ...account, targetId: linkTargetId });
}
