import { describe, expect, it } from "vitest";
import type { User } from "../../accounts/index.js";
import {
  aFullUser,
  anIdentity,
  aSession,
  aToken,
  at,
  aUser,
  type MakeStore,
  newId,
  seedUser,
  useStore,
} from "../harness.js";

/** The `UserRepository` contract; run it against every implementation. */
export function describeUserRepositoryContract(name: string, makeStore: MakeStore): void {
  describe(`UserRepository contract: ${name}`, () => {
    const harness = useStore(makeStore);
    const users = () => harness().store.users;

    describe("insert and find", () => {
      it("gives back a user with every field set exactly as inserted", async () => {
        const user = aFullUser();
        expect(await users().insert(user)).toBe("inserted");
        expect(await users().findById(user.id)).toEqual(user);
      });

      it("keeps a soft-deleted user: deleted_at and a mixed-case obfuscated email", async () => {
        const user = await seedUser(harness().store, aUser({ email: "carol@example.com" }));
        const hidden = {
          ...user,
          email: "Xk3_-ObFuScAtEd",
          phone: "Ab9-_z",
          deletedAt: at(9),
          updatedAt: at(9),
        };
        expect(await users().update(hidden)).toBe("updated");
        expect(await users().findById(user.id)).toEqual(hidden);
        expect(await users().findByEmail("carol@example.com")).toBeNull();
      });

      it("gives back a user with every optional field unset", async () => {
        const user = aUser({ email: null });
        expect(await users().insert(user)).toBe("inserted");
        expect(await users().findById(user.id)).toEqual(user);
      });

      it("keeps metadata as the same JSON: nesting, unicode, null values, a harmless __proto__ key", async () => {
        const userMetadata = JSON.parse(
          '{"__proto__": {"polluted": true}, "name": "Zoë 李 🚀", "deep": {"a": [1, {"b": null}], "t": true},' +
            '"quote": "\\"\'\\\\", "empty": {}, "list": [], "n": -12.5e3}',
        );
        const user = aUser({ userMetadata, appMetadata: { roles: ["admin"], "key with space": "x" } });
        await seedUser(harness().store, user);
        const found = await users().findById(user.id);
        expect(found?.userMetadata).toEqual(userMetadata);
        expect(found?.appMetadata).toEqual(user.appMetadata);
        expect(Object.keys(found?.userMetadata ?? {})).toContain("__proto__");
        expect(Object.getPrototypeOf(found?.userMetadata)).toBe(Object.prototype);
        expect(({} as Record<string, unknown>).polluted).toBeUndefined();
      });

      it("finds nothing for an unknown or malformed id", async () => {
        await seedUser(harness().store);
        expect(await users().findById(newId())).toBeNull();
        expect(await users().findById("not-a-uuid")).toBeNull();
        expect(await users().findWithIdentities(newId())).toBeNull();
        expect(await users().lock(newId())).toBeNull();
      });

      it("finds by email in any case, since emails are stored lowercased", async () => {
        const user = await seedUser(harness().store, aUser({ email: "alice.smith@example.com" }));
        expect((await users().findByEmail("Alice.Smith@EXAMPLE.com"))?.id).toBe(user.id);
        expect((await users().findByEmail("alice.smith@example.com"))?.id).toBe(user.id);
        expect(await users().findByEmail("alice@example.com")).toBeNull();
      });

      it("finds no SSO user by email: an identity provider's address may repeat another account's", async () => {
        await seedUser(harness().store, aUser({ email: "sam@example.com", isSsoUser: true }));
        expect(await users().findByEmail("sam@example.com")).toBeNull();
        const user = await seedUser(harness().store, aUser({ email: "sam@example.com" }));
        expect((await users().findByEmail("sam@example.com"))?.id).toBe(user.id);
      });

      it("finds by phone", async () => {
        const user = await seedUser(harness().store, aUser({ phone: "15551230001" }));
        expect((await users().findByPhone("15551230001"))?.id).toBe(user.id);
        expect(await users().findByPhone("15551230002")).toBeNull();
      });

      it("reads the user when locking it", async () => {
        const user = await seedUser(harness().store, aFullUser());
        expect(await harness().store.transaction((repos) => repos.users.lock(user.id))).toEqual(user);
      });
    });

    describe("duplicates", () => {
      it("reports a taken id, email or phone instead of throwing, and keeps the first user", async () => {
        const first = await seedUser(harness().store, aUser({ phone: "15551230010" }));
        expect(await users().insert(aUser({ id: first.id, email: "someone-else@example.com" }))).toBe(
          "duplicate_id",
        );
        expect(await users().insert(aUser({ email: first.email }))).toBe("duplicate_email");
        expect(await users().insert(aUser({ phone: first.phone }))).toBe("duplicate_phone");
        expect(await users().findById(first.id)).toEqual(first);
        expect((await users().list({ offset: 0, limit: 10 })).total).toBe(1);
      });

      it("lets any number of users go without email or phone", async () => {
        for (let i = 0; i < 3; i++) {
          expect(await users().insert(aUser({ email: null, phone: null }))).toBe("inserted");
        }
      });

      it("reports a duplicate inside a transaction, which still commits what it wrote", async () => {
        const taken = await seedUser(harness().store);
        const before = aUser();
        const after = aUser();
        const outcomes = await harness().store.transaction(async (repos) => [
          await repos.users.insert(before),
          await repos.users.insert(aUser({ email: taken.email })),
          await repos.users.update({ ...taken, phone: "15551230020" }),
          await repos.users.insert(after),
        ]);
        expect(outcomes).toEqual(["inserted", "duplicate_email", "updated", "inserted"]);
        expect(await users().findById(before.id)).toEqual(before);
        expect(await users().findById(after.id)).toEqual(after);
        expect((await users().findById(taken.id))?.phone).toBe("15551230020");
      });
    });

    describe("update", () => {
      it("overwrites every field", async () => {
        const user = await seedUser(harness().store);
        const changed: User = { ...aFullUser({ id: user.id }), appMetadata: { provider: "phone" } };
        expect(await users().update(changed)).toBe("updated");
        expect(await users().findById(user.id)).toEqual(changed);
        const cleared = aUser({ id: user.id, email: null, createdAt: at(5) });
        expect(await users().update(cleared)).toBe("updated");
        expect(await users().findById(user.id)).toEqual(cleared);
      });

      it("answers not_found for an unknown user and creates nothing", async () => {
        const ghost = aUser();
        expect(await users().update(ghost)).toBe("not_found");
        expect(await users().findById(ghost.id)).toBeNull();
      });

      it("reports taking another user's email or phone and leaves the user as it was", async () => {
        const alice = await seedUser(harness().store, aUser({ phone: "15551230030" }));
        const bob = await seedUser(harness().store, aUser({ phone: "15551230031" }));
        expect(await users().update({ ...bob, email: alice.email })).toBe("duplicate_email");
        expect(await users().update({ ...bob, phone: alice.phone })).toBe("duplicate_phone");
        expect(await users().findById(bob.id)).toEqual(bob);
        expect(await users().update({ ...bob, email: bob.email, userMetadata: { x: 1 } })).toBe("updated");
      });
    });

    describe("delete", () => {
      it("deletes the user with its identities, sessions and refresh tokens, and no one else's", async () => {
        const { store } = harness();
        const seeded = [];
        for (const user of [await seedUser(store), await seedUser(store)]) {
          await store.identities.insert(anIdentity(user));
          const session = aSession(user);
          await store.sessions.create(session);
          seeded.push({ user, session, token: await store.sessions.insertToken(aToken(session)) });
        }
        const [gone, kept] = seeded as [(typeof seeded)[0], (typeof seeded)[0]];
        expect(await users().delete(gone.user.id)).toBe(true);
        expect(await users().findById(gone.user.id)).toBeNull();
        expect(await store.identities.listByUser(gone.user.id)).toEqual([]);
        expect(await store.sessions.find(gone.session.id)).toBeNull();
        expect(await store.sessions.findTokenByHash(gone.token.tokenHash)).toBeNull();
        expect(await users().delete(gone.user.id)).toBe(false);
        expect(await store.identities.listByUser(kept.user.id)).toHaveLength(1);
        expect(await store.sessions.find(kept.session.id)).toEqual(kept.session);
        expect(await store.sessions.findTokenByHash(kept.token.tokenHash)).toEqual(kept.token);
      });

      it("answers false for an unknown or malformed id", async () => {
        expect(await users().delete(newId())).toBe(false);
        expect(await users().delete("nope")).toBe(false);
      });
    });

    describe("identities and listing", () => {
      it("embeds the user's identities, oldest first, and their factors", async () => {
        const { store } = harness();
        const user = await seedUser(store);
        expect(await users().findWithIdentities(user.id)).toEqual({ ...user, identities: [], factors: [] });
        const email = anIdentity(user, { createdAt: at(1), updatedAt: at(1) });
        const github = anIdentity(user, { provider: "github", providerId: "gh-1", createdAt: at(2) });
        await store.identities.insert(email);
        await store.identities.insert(github);
        expect(await users().findWithIdentities(user.id)).toEqual({
          ...user,
          identities: [email, github],
          factors: [],
        });
      });

      it("lists newest first (ties by id, descending), a page at a time, with the total", async () => {
        const { store } = harness();
        const tied = [newId(), newId()].sort();
        const oldest = await seedUser(store, aUser({ createdAt: at(1) }));
        const tieLow = await seedUser(store, aUser({ id: tied[0], createdAt: at(2) }));
        const tieHigh = await seedUser(store, aUser({ id: tied[1], createdAt: at(2) }));
        const newest = await seedUser(store, aUser({ createdAt: at(3) }));
        const identity = anIdentity(newest);
        await store.identities.insert(identity);
        const ids = async (offset: number, limit: number) => {
          const page = await users().list({ offset, limit });
          return { ids: page.users.map((u) => u.id), total: page.total };
        };
        expect(await ids(0, 10)).toEqual({
          ids: [newest, tieHigh, tieLow, oldest].map((u) => u.id),
          total: 4,
        });
        expect(await ids(1, 2)).toEqual({ ids: [tieHigh.id, tieLow.id], total: 4 });
        expect(await ids(3, 2)).toEqual({ ids: [oldest.id], total: 4 });
        expect(await ids(4, 2)).toEqual({ ids: [], total: 4 });
        expect(await ids(0, 0)).toEqual({ ids: [], total: 4 });
        const first = await users().list({ offset: 0, limit: 2 });
        expect(first.users).toEqual([
          { ...newest, identities: [identity] },
          { ...tieHigh, identities: [] },
        ]);
      });

      it("lists only the audience asked for, and its total", async () => {
        const { store } = harness();
        await seedUser(store, aUser({ aud: "authenticated" }));
        const other = await seedUser(store, aUser({ aud: "other-app" }));
        const page = await users().list({ offset: 0, limit: 10, aud: "other-app" });
        expect(page).toEqual({ users: [{ ...other, identities: [] }], total: 1 });
        expect(await users().list({ offset: 0, limit: 10, aud: "nobody" })).toEqual({ users: [], total: 0 });
      });

      it("pages from either end alike: every window of the list, in order, with the total", async () => {
        const { store } = harness();
        const seeded: User[] = [];
        for (let n = 1; n <= 7; n++) seeded.push(await seedUser(store, aUser({ createdAt: at(n) })));
        const newestFirst = seeded.reverse().map((u) => u.id);
        for (let offset = 0; offset <= 8; offset++) {
          for (const limit of [1, 2, 3, 7]) {
            const page = await users().list({ offset, limit, aud: "authenticated" });
            expect({ offset, limit, ids: page.users.map((u) => u.id), total: page.total }).toEqual({
              offset,
              limit,
              ids: newestFirst.slice(offset, offset + limit),
              total: 7,
            });
          }
        }
      });

      it("counts users added, removed and moved to another audience", async () => {
        const { store } = harness();
        const total = async (aud: string) => (await users().list({ offset: 0, limit: 1, aud })).total;
        const kept = await seedUser(store, aUser({ aud: "authenticated" }));
        const gone = await seedUser(store, aUser({ aud: "authenticated" }));
        const moved = await seedUser(store, aUser({ aud: "authenticated" }));
        expect(await total("authenticated")).toBe(3);
        expect(await users().delete(gone.id)).toBe(true);
        expect(await users().update({ ...moved, aud: "other-app" })).toBe("updated");
        expect(await users().update({ ...kept, email: "kept@example.com" })).toBe("updated");
        expect(await total("authenticated")).toBe(1);
        expect(await total("other-app")).toBe(1);
        expect((await users().list({ offset: 0, limit: 10 })).total).toBe(2);
      });

      it("filters on a substring of the email or the full name, case-insensitive, wildcards as plain text", async () => {
        const { store } = harness();
        const ada = await seedUser(store, aUser({ email: "ada.lovelace@example.com", createdAt: at(1) }));
        const byName = await seedUser(
          store,
          aUser({
            email: "x1@example.org",
            userMetadata: { full_name: "Grace LOVELACE-Hopper" },
            createdAt: at(2),
          }),
        );
        const percent = await seedUser(store, aUser({ email: "100%_sure@example.com", createdAt: at(3) }));
        await seedUser(store, aUser({ email: "other@example.com", userMetadata: { name: "lovelace" } }));
        await seedUser(store, aUser({ aud: "other-app", email: "lovelace@other.example" }));
        const ids = async (filter: string, offset = 0, limit = 10) => {
          const page = await users().list({ offset, limit, aud: "authenticated", filter, countLimit: 100 });
          return { ids: page.users.map((u) => u.id), total: page.total };
        };
        expect(await ids("LoveLace")).toEqual({ ids: [byName.id, ada.id], total: 2 });
        expect(await ids("lovelace", 1, 1)).toEqual({ ids: [ada.id], total: 2 });
        expect(await ids("lovelace", 2, 1)).toEqual({ ids: [], total: 2 });
        expect(await ids("%_")).toEqual({ ids: [percent.id], total: 1 });
        expect(await ids("0%")).toEqual({ ids: [percent.id], total: 1 });
        expect(await ids("_")).toEqual({ ids: [percent.id], total: 1 });
        expect(await ids("ada%lovelace")).toEqual({ ids: [], total: 0 });
        expect(await ids("a\\b")).toEqual({ ids: [], total: 0 });
        expect(await ids("nobody-matches-this")).toEqual({ ids: [], total: 0 });
      });

      it("counts a filter's matches up to the count limit only", async () => {
        const { store } = harness();
        for (let n = 1; n <= 5; n++) await seedUser(store, aUser({ email: `match-${n}@example.com` }));
        const page = await users().list({
          offset: 0,
          limit: 2,
          aud: "authenticated",
          filter: "match-",
          countLimit: 3,
        });
        expect({ shown: page.users.length, total: page.total }).toEqual({ shown: 2, total: 3 });
        const pastLimit = await users().list({
          offset: 3,
          limit: 5,
          aud: "authenticated",
          filter: "match-",
          countLimit: 3,
        });
        expect({ shown: pastLimit.users.length, total: pastLimit.total }).toEqual({ shown: 2, total: 3 });
        const all = await users().list({ offset: 0, limit: 2, aud: "authenticated", filter: "match-" });
        expect(all.total).toBe(5);
      });
    });
  });
}
