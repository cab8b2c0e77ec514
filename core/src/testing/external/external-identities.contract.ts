import { describe, expect, it } from "vitest";
import type { User } from "../../accounts/index.js";
import { anIdentity, at, aUser, type MakeStore, newId, useStore } from "../harness.js";

/** The `ExternalIdentityStore` contract: lookups by provider subject and by lowercased email, deletion. */
export function describeExternalIdentityContract(name: string, makeStore: MakeStore): void {
  describe(`${name}: ExternalIdentityStore`, () => {
    const harness = useStore(makeStore);

    it("finds an identity by provider and subject, and by its verified email in any case, oldest first", async () => {
      const { store } = harness();
      const ann = aUser();
      const bob = aUser();
      await store.users.insert(ann);
      await store.users.insert(bob);
      const subject = newId();
      const github = anIdentity(ann, {
        provider: "github",
        providerId: subject,
        identityData: { sub: subject, email: "Shared@Example.com", email_verified: true },
        createdAt: at(2),
      });
      const email = anIdentity(bob, {
        identityData: { email: "shared@example.com", email_verified: true },
        createdAt: at(1),
      });
      // Anyone can make a provider report any address unverified: such an identity is never found by it.
      const unverified = anIdentity(bob, {
        provider: "keycloak",
        providerId: newId(),
        identityData: { email: "shared@example.com", email_verified: false },
        createdAt: at(0),
      });
      const unsaid = anIdentity(ann, {
        provider: "gitlab",
        providerId: newId(),
        identityData: { email: "shared@example.com" },
        createdAt: at(0),
      });
      await store.identities.insert(github);
      await store.identities.insert(email);
      await store.identities.insert(unverified);
      await store.identities.insert(unsaid);
      expect(await store.externalIdentities.findByProvider("github", subject)).toEqual(github);
      expect(await store.externalIdentities.findByProvider("gitlab", subject)).toBeNull();
      expect(
        (await store.externalIdentities.listByVerifiedEmails(["shared@example.com"])).map((i) => i.id),
      ).toEqual([email.id, github.id]);
      expect(await store.externalIdentities.listByVerifiedEmails([])).toEqual([]);
      expect(await store.externalIdentities.delete(github.id)).toBe(true);
      expect(await store.externalIdentities.delete(github.id)).toBe(false);
      expect(await store.externalIdentities.delete("nope")).toBe(false);
      expect((await store.identities.listByUser(ann.id)).map((i) => i.id)).toEqual([unsaid.id]);
    });

    it("inserts an identity unless its provider and subject are known: of 8 concurrent inserts one wins", async () => {
      const { store } = harness();
      const users = [aUser(), aUser(), aUser(), aUser(), aUser(), aUser(), aUser(), aUser()];
      for (const user of users) await store.users.insert(user);
      const subject = newId();
      const identities = users.map((user) => anIdentity(user, { provider: "github", providerId: subject }));
      const inserted = await Promise.all(
        identities.map((identity) =>
          store.transaction((repos) => repos.externalIdentities.insertUnlessKnown(identity)),
        ),
      );
      expect(inserted.filter(Boolean)).toHaveLength(1);
      const winner = identities[inserted.indexOf(true)];
      expect(await store.externalIdentities.findByProvider("github", subject)).toEqual(winner);
      const other = anIdentity(users[0] as User, { provider: "gitlab", providerId: subject });
      expect(await store.externalIdentities.insertUnlessKnown(other)).toBe(true);
      expect(await store.externalIdentities.findByProvider("gitlab", subject)).toEqual(other);
    });
  });
}
