import { actorUsername, type UserRepository, type UserWithIdentities } from "../../accounts/index.js";
import type { PasswordGrantInput, SessionStore } from "../../sessions/index.js";
import type { FakeTables } from "../fake-tables.js";

/**
 * `SessionStore.grantPassword` over the in-memory tables: the reference the Postgres function
 * (migrations/functions/password_grant.sql) is held to by the contract suite. Synchronous up to its last
 * read, so that two grants never interleave (as the row lock orders them in Postgres).
 */
export function fakePasswordGrant(
  t: FakeTables,
  sessions: Pick<SessionStore, "create">,
  users: Pick<UserRepository, "findWithIdentities">,
): (input: PasswordGrantInput) => Promise<UserWithIdentities | null> {
  return async (input) => {
    const current = t.users.get(input.userId);
    if (!current || current.encryptedPassword !== input.verifiedHash) return null;
    const { now } = input;
    const later = (stamp: Date | null) => (stamp !== null && stamp > now ? stamp : now);
    const signedIn = {
      ...current,
      encryptedPassword: input.upgradedHash ?? current.encryptedPassword,
      lastSignInAt: later(current.lastSignInAt),
      updatedAt: later(current.updatedAt),
    };
    t.users.set(signedIn.id, signedIn);
    t.audit.push({
      action: "login",
      actorId: signedIn.id,
      actorUsername: actorUsername(signedIn),
      traits: { provider: input.provider },
      ipAddress: input.ipAddress,
      at: now,
    });
    await sessions.create(input.session, input.refreshTokenHash);
    return (await users.findWithIdentities(signedIn.id)) ?? { ...signedIn, identities: [] };
  };
}
