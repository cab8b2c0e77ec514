import { withProviders } from "../channel-identity.js";
import type { IdentityRepository } from "../ports/identity-repository.js";
import type { User } from "../user.js";

/**
 * Removes `user`'s identities of external providers (see `IdentityRepository.deleteExternal`) and
 * resolves `user` with `app_metadata.providers` recomputed from those that remain, or null when it
 * held none (nothing changed). Not stored: the caller saves the user with its other changes.
 */
export async function withoutExternalIdentities(
  identities: Pick<IdentityRepository, "deleteExternal" | "listByUser">,
  user: User,
): Promise<User | null> {
  if ((await identities.deleteExternal(user.id)) === 0) return null;
  return { ...user, appMetadata: withProviders(user.appMetadata, await identities.listByUser(user.id)) };
}
