import { describe, expect, it } from "vitest";
import { anIdentity, at, type MakeStore, newId, seedUser, useStore } from "../harness.js";

/** The `IdentityRepository` contract; run it against every implementation. */
export function describeIdentityRepositoryContract(name: string, makeStore: MakeStore): void {
  describe(`IdentityRepository contract: ${name}`, () => {
    const harness = useStore(makeStore);
    const identities = () => harness().store.identities;

    it("lists a user's identities exactly as inserted, oldest first", async () => {
      const user = await seedUser(harness().store);
      const email = anIdentity(user, { createdAt: at(1), updatedAt: at(2) });
      const github = anIdentity(user, {
        provider: "github",
        providerId: "4242",
        identityData: { sub: "4242", name: "Ünïcødé ☃", nested: { orgs: ["a", "b"], admin: false } },
        lastSignInAt: at(3),
        createdAt: at(2),
        updatedAt: at(3),
      });
      await identities().insert(email);
      await identities().insert(github);
      expect(await identities().listByUser(user.id)).toEqual([email, github]);
    });

    it("lists nothing for a user without identities, an unknown user or a malformed id", async () => {
      const user = await seedUser(harness().store);
      const other = await seedUser(harness().store);
      await identities().insert(anIdentity(other));
      expect(await identities().listByUser(user.id)).toEqual([]);
      expect(await identities().listByUser(newId())).toEqual([]);
      expect(await identities().listByUser("not-a-uuid")).toEqual([]);
    });

    it("overwrites an identity by id and leaves the others alone", async () => {
      const user = await seedUser(harness().store);
      const email = anIdentity(user, { createdAt: at(1) });
      const phone = anIdentity(user, {
        provider: "phone",
        identityData: { phone: "15550001111" },
        createdAt: at(2),
      });
      await identities().insert(email);
      await identities().insert(phone);
      const changed = {
        ...email,
        identityData: { sub: user.id, email: "new@example.com" },
        updatedAt: at(9),
      };
      await identities().update(changed);
      expect(await identities().listByUser(user.id)).toEqual([changed, phone]);
    });

    it("deletes a user's external identities only, keeping email and phone and other users'", async () => {
      const user = await seedUser(harness().store);
      const other = await seedUser(harness().store);
      const email = anIdentity(user, { createdAt: at(1) });
      const phone = anIdentity(user, {
        provider: "phone",
        identityData: { phone: "1555" },
        createdAt: at(2),
      });
      const github = anIdentity(user, { provider: "github", providerId: "77", createdAt: at(3) });
      const keycloak = anIdentity(user, { provider: "keycloak", providerId: "k-1", createdAt: at(4) });
      const othersGithub = anIdentity(other, { provider: "github", providerId: "78" });
      for (const i of [email, phone, github, keycloak, othersGithub]) await identities().insert(i);
      expect(await identities().deleteExternal(user.id)).toBe(2);
      expect(await identities().listByUser(user.id)).toEqual([email, phone]);
      expect(await identities().listByUser(other.id)).toEqual([othersGithub]);
      expect(await identities().deleteExternal("not-a-uuid")).toBe(0);
    });

    it("creates nothing when updating an unknown identity", async () => {
      const user = await seedUser(harness().store);
      await identities().update(anIdentity(user));
      expect(await identities().listByUser(user.id)).toEqual([]);
    });
  });
}
