import { syncChannelIdentities } from "../channel-identity.js";
import type { AccountsDeps, AccountsRepositories } from "../deps.js";
import type { Identity, User } from "../user.js";

/** A user that could not be inserted: another user already has its email, phone or id. */
export type UserClash = "duplicate_email" | "duplicate_phone" | "duplicate_id";

export type CreatedUser =
  | { readonly created: true; readonly user: User; readonly identities: readonly Identity[] }
  | { readonly created: false; readonly clash: UserClash };

/**
 * Creates a user and its identities inside the caller's transaction: the one place every flow that
 * makes a user goes through (sign-up, anonymous sign-in, passwordless OTP and magic link,
 * generate_link, admin create, invite). The before-user-created hook is not run here, inside the
 * transaction, but by each flow before it (`vetNewUser` in core/src/hooks), as the reference does:
 * an HTTP hook must never hold a transaction open; the flow then creates the very user it vetted.
 *
 * The insert itself detects a clash with a concurrent or earlier user (same email, phone or id) and
 * reports it instead of throwing; each caller answers it as its endpoint does (a duplicate sign-up,
 * `email_exists`, finding the winner). `identities` defaults to one identity per channel of the user
 * (email, phone); a flow that records more (verified flags) or none (anonymous) passes its own.
 */
export async function createUser(
  deps: Pick<AccountsDeps, "random">,
  repos: Pick<AccountsRepositories, "users" | "identities">,
  user: User,
  options: { readonly now: Date; readonly identities?: readonly Identity[] },
): Promise<CreatedUser> {
  const inserted = await repos.users.insert(user);
  if (inserted !== "inserted") return { created: false, clash: inserted };
  const identities =
    options.identities ??
    syncChannelIdentities(user, [], { now: options.now, newId: () => deps.random.uuid() }).identities;
  for (const identity of identities) await repos.identities.insert(identity);
  return { created: true, user, identities };
}
