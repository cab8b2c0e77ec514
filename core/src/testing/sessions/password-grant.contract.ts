import { describe, expect, it } from "vitest";
import type { User } from "../../accounts/index.js";
import type { PasswordGrantInput } from "../../sessions/index.js";
import {
  aFullUser,
  anIdentity,
  aSession,
  at,
  type MakeStore,
  newHash,
  seedUser,
  useStore,
} from "../harness.js";

const HASH = "$argon2id$v=19$m=19456,t=2,p=1$c2FsdHNhbHQ$aGFzaGhhc2hoYXNo";
const UPGRADED = "$argon2id$v=19$m=19456,t=2,p=1$bmV3c2FsdA$bmV3aGFzaG5ld2hhc2g";

/**
 * `SessionStore.grantPassword`, the writes of a password sign-in in one step: run against every
 * implementation (Postgres runs migrations/functions/password_grant.sql).
 */
export function describePasswordGrantContract(name: string, makeStore: MakeStore): void {
  describe(`SessionStore contract (password grant): ${name}`, () => {
    const harness = useStore(makeStore);
    const store = () => harness().store;

    async function seeded() {
      const user = await seedUser(store(), aFullUser({ encryptedPassword: HASH, bannedUntil: null }));
      await store().identities.insert(anIdentity(user));
      return user;
    }
    const input = (user: User, when: Date, fields: Partial<PasswordGrantInput> = {}): PasswordGrantInput => ({
      userId: user.id,
      verifiedHash: HASH,
      upgradedHash: null,
      now: when,
      session: aSession(user, { createdAt: when, updatedAt: when }),
      refreshTokenHash: newHash(),
      provider: "email",
      ...fields,
    });

    it("stamps the sign-in, records the login, starts the session with its first token, answers the user", async () => {
      const user = await seeded();
      const grant = input(user, at(20));
      const signedIn = await store().sessions.grantPassword(grant);
      const stamped = { ...user, lastSignInAt: at(20), updatedAt: at(20) };
      expect(signedIn).toMatchObject({ ...stamped, identities: [{ userId: user.id }], factors: [] });
      expect(await store().users.findById(user.id)).toEqual(stamped);
      expect(await store().sessions.find(grant.session.id)).toEqual(grant.session);
      expect(await store().sessions.activeToken(grant.session.id)).toMatchObject({
        tokenHash: grant.refreshTokenHash,
        userId: user.id,
        parentId: null,
        revoked: false,
        createdAt: at(20),
      });
      expect(await harness().auditEntries()).toEqual([
        {
          action: "login",
          actorId: user.id,
          // Phone before email, as every audit actor.
          actorUsername: user.phone,
          traits: { provider: "email" },
          at: at(20),
        },
      ]);
    });

    it("records the client's address on the login entry", async () => {
      const user = await seeded();
      await store().sessions.grantPassword(input(user, at(20), { ipAddress: "198.51.100.23" }));
      expect((await harness().auditEntries()).map((e) => [e.action, e.ipAddress])).toEqual([
        ["login", "198.51.100.23"],
      ]);
    });

    it("replaces the hash with the upgraded one and touches no other column", async () => {
      const user = await seeded();
      // Changed after the caller read the user: kept, not overwritten with what the caller saw.
      await store().users.update({ ...user, userMetadata: { changed: true } });
      await store().sessions.grantPassword(input(user, at(20), { upgradedHash: UPGRADED }));
      expect(await store().users.findById(user.id)).toMatchObject({
        encryptedPassword: UPGRADED,
        userMetadata: { changed: true },
        lastSignInAt: at(20),
      });
    });

    it("refuses, writing nothing, when the password changed since it was verified or the user is gone", async () => {
      const user = await seeded();
      await store().users.update({ ...user, encryptedPassword: UPGRADED });
      const grant = input(user, at(20));
      expect(await store().sessions.grantPassword(grant)).toBeNull();
      expect(await store().sessions.find(grant.session.id)).toBeNull();
      expect(await store().users.findById(user.id)).toMatchObject({ lastSignInAt: user.lastSignInAt });
      expect(await harness().auditEntries()).toEqual([]);
      await store().users.delete(user.id);
      expect(
        await store().sessions.grantPassword(input(user, at(21), { verifiedHash: UPGRADED })),
      ).toBeNull();
    });

    it("never moves the user's stamps back: a sign-in timed before the row's last one leaves them", async () => {
      const user = await seeded();
      await store().sessions.grantPassword(input(user, at(40)));
      const earlier = await store().sessions.grantPassword(input(user, at(35)));
      expect(earlier).toMatchObject({ lastSignInAt: at(40), updatedAt: at(40) });
      expect(await store().users.findById(user.id)).toMatchObject({
        lastSignInAt: at(40),
        updatedAt: at(40),
      });
      // Its session and login entry are its own all the same.
      expect(await store().sessions.listForUser(user.id)).toHaveLength(2);
    });

    it("lets many sign-ins of one user run at once: every one gets its own session", async () => {
      const user = await seeded();
      const grants = Array.from({ length: 12 }, (_, i) => input(user, at(30 + i)));
      const answers = await Promise.all(grants.map((g) => store().sessions.grantPassword(g)));
      expect(answers.every((a) => a?.id === user.id)).toBe(true);
      expect((await store().sessions.listForUser(user.id)).map((s) => s.id).sort()).toEqual(
        grants.map((g) => g.session.id).sort(),
      );
      expect((await harness().auditEntries()).length).toBe(12);
    });
  });
}
