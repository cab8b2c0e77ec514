import { describe, expect, it } from "vitest";
import type { Passkey, WebauthnChallenge } from "../../passkeys/index.js";
import { at, aUser, type MakeStore, newId, useStore } from "../harness.js";

let credentials = 0;

/** A passkey of `userId` with a unique id and credential id. */
export function aPasskey(userId: string, fields: Partial<Passkey> = {}): Passkey {
  credentials += 1;
  return {
    id: newId(),
    userId,
    credentialId: `Y3JlZGVudGlhbC0${credentials}`,
    publicKey: "cHVibGljLWtleQ",
    attestationType: "none",
    aaguid: null,
    signCount: 0,
    transports: ["internal", "hybrid"],
    backupEligible: true,
    backedUp: false,
    friendlyName: "Passkey",
    createdAt: at(credentials),
    updatedAt: at(credentials),
    lastUsedAt: null,
    ...fields,
  };
}

export function aWebauthnChallenge(fields: Partial<WebauthnChallenge> = {}): WebauthnChallenge {
  return {
    id: newId(),
    userId: null,
    type: "authentication",
    state: { challenge: "Y2hhbGxlbmdl", userVerification: "preferred" },
    createdAt: at(0),
    expiresAt: at(300),
    ...fields,
  };
}

/** The passkey ports: passkeys, and the single-use challenges of their ceremonies. */
export function describePasskeyStoreContract(name: string, makeStore: MakeStore): void {
  describe(`${name}: PasskeyStore, WebauthnChallengeStore`, () => {
    const harness = useStore(makeStore);

    async function aStoredUser() {
      const user = aUser();
      await harness().store.users.insert(user);
      return user;
    }

    it("stores passkeys, lists a user's oldest first, and finds one only for its owner", async () => {
      const { store } = harness();
      const user = await aStoredUser();
      const other = await aStoredUser();
      const older = aPasskey(user.id, { aaguid: "ea9b8d66-4d01-1d21-3ce4-b6b48cb575d4", signCount: 7 });
      const newer = aPasskey(user.id);
      expect(await store.passkeys.insert(newer)).toBe("inserted");
      expect(await store.passkeys.insert(older)).toBe("inserted");
      expect(await store.passkeys.listByUser(user.id)).toEqual([older, newer]);
      expect(await store.passkeys.findOwned(user.id, older.id)).toEqual(older);
      expect(await store.passkeys.findOwned(other.id, older.id)).toBeNull();
      expect(await store.passkeys.findOwned(user.id, "not-a-uuid")).toBeNull();
      expect(await store.passkeys.listByUser(other.id)).toEqual([]);
    });

    it("refuses a credential id registered already, to the same user or another", async () => {
      const { store } = harness();
      const user = await aStoredUser();
      const other = await aStoredUser();
      const first = aPasskey(user.id);
      await store.passkeys.insert(first);
      expect(await store.passkeys.insert(aPasskey(user.id, { credentialId: first.credentialId }))).toBe(
        "exists",
      );
      expect(await store.passkeys.insert(aPasskey(other.id, { credentialId: first.credentialId }))).toBe(
        "exists",
      );
      expect(await store.passkeys.listByUser(other.id)).toEqual([]);
    });

    it("renames, records a use and deletes only the owner's passkey", async () => {
      const { store } = harness();
      const user = await aStoredUser();
      const other = await aStoredUser();
      const passkey = aPasskey(user.id);
      await store.passkeys.insert(passkey);
      expect(await store.passkeys.rename(other.id, passkey.id, "Mine", at(50))).toBeNull();
      expect(await store.passkeys.rename(user.id, passkey.id, "Laptop", at(50))).toEqual({
        ...passkey,
        friendlyName: "Laptop",
        updatedAt: at(50),
      });
      expect(await store.passkeys.recordUse(passkey.id, { signCount: 42, backedUp: true, at: at(60) })).toBe(
        true,
      );
      expect(await store.passkeys.recordUse(passkey.id, { signCount: 42, backedUp: true, at: at(61) })).toBe(
        false,
      );
      expect(await store.passkeys.recordUse(passkey.id, { signCount: 7, backedUp: true, at: at(61) })).toBe(
        false,
      );
      expect(await store.passkeys.findOwned(user.id, passkey.id)).toMatchObject({
        signCount: 42,
        backedUp: true,
        lastUsedAt: at(60),
      });
      expect(await store.passkeys.delete(other.id, passkey.id)).toBe(false);
      expect(await store.passkeys.delete(user.id, passkey.id)).toBe(true);
      expect(await store.passkeys.delete(user.id, passkey.id)).toBe(false);
    });

    it("counts one counter value once, even from concurrent sign-ins; 0 stays 0 for counterless authenticators", async () => {
      const { store } = harness();
      const user = await aStoredUser();
      const counting = aPasskey(user.id, { signCount: 5 });
      const counterless = aPasskey(user.id);
      await store.passkeys.insert(counting);
      await store.passkeys.insert(counterless);
      const use = { signCount: 6, backedUp: false, at: at(70) };
      const recorded = await Promise.all(
        Array.from({ length: 4 }, () => store.passkeys.recordUse(counting.id, use)),
      );
      expect(recorded.filter(Boolean)).toHaveLength(1);
      const none = { signCount: 0, backedUp: false, at: at(70) };
      expect(await store.passkeys.recordUse(counterless.id, none)).toBe(true);
      expect(await store.passkeys.recordUse(counterless.id, none)).toBe(true);
    });

    it("keeps a WebAuthn factor's credential, and an update without it leaves it", async () => {
      const { store } = harness();
      const user = await aStoredUser();
      const credential = {
        credentialId: "Y3JlZA",
        publicKey: "cHVibGlj",
        attestationType: "packed",
        aaguid: "ea9b8d66-4d01-1d21-3ce4-b6b48cb575d4",
        signCount: 3,
        transports: ["usb"],
        backupEligible: false,
        backedUp: false,
      };
      const factor = {
        id: newId(),
        userId: user.id,
        friendlyName: "key",
        factorType: "webauthn" as const,
        status: "verified" as const,
        secret: null,
        phone: null,
        createdAt: at(1),
        updatedAt: at(1),
        lastChallengedAt: null,
        webauthnCredential: credential,
      };
      await store.factors.insert(factor);
      expect((await store.factors.findOwned(user.id, factor.id))?.webauthnCredential).toEqual(credential);
      const { webauthnCredential: _, ...withoutCredential } = factor;
      await store.factors.update({ ...withoutCredential, friendlyName: "renamed", updatedAt: at(2) });
      expect(await store.factors.findOwned(user.id, factor.id)).toMatchObject({
        friendlyName: "renamed",
        webauthnCredential: credential,
      });
    });

    it("removes a user's passkeys and challenges with the user", async () => {
      const { store } = harness();
      const user = await aStoredUser();
      await store.passkeys.insert(aPasskey(user.id));
      const challenge = aWebauthnChallenge({ userId: user.id, type: "registration" });
      await store.webauthnChallenges.insert(challenge);
      await store.users.delete(user.id);
      expect(await store.passkeys.listByUser(user.id)).toEqual([]);
      expect(await store.webauthnChallenges.consume(challenge.id, "registration", user.id)).toBeNull();
    });

    it("gives a challenge once, only for its type and user", async () => {
      const { store } = harness();
      const user = await aStoredUser();
      const other = await aStoredUser();
      const registration = aWebauthnChallenge({ userId: user.id, type: "registration" });
      const signIn = aWebauthnChallenge();
      await store.webauthnChallenges.insert(registration);
      await store.webauthnChallenges.insert(signIn);
      expect(await store.webauthnChallenges.consume(registration.id, "registration", other.id)).toBeNull();
      expect(await store.webauthnChallenges.consume(registration.id, "authentication", null)).toBeNull();
      expect(await store.webauthnChallenges.consume(signIn.id, "authentication", user.id)).toBeNull();
      expect(await store.webauthnChallenges.consume(registration.id, "registration", user.id)).toEqual(
        registration,
      );
      expect(await store.webauthnChallenges.consume(registration.id, "registration", user.id)).toBeNull();
      expect(await store.webauthnChallenges.consume(signIn.id, "authentication", null)).toEqual(signIn);
      expect(await store.webauthnChallenges.consume("not-a-uuid", "authentication", null)).toBeNull();
    });

    it("gives a challenge to exactly one of 8 concurrent consumers", async () => {
      const { store } = harness();
      const challenge = aWebauthnChallenge();
      await store.webauthnChallenges.insert(challenge);
      const taken = await Promise.all(
        Array.from({ length: 8 }, () =>
          store.webauthnChallenges.consume(challenge.id, "authentication", null),
        ),
      );
      expect(taken.filter((c) => c !== null)).toEqual([challenge]);
    });

    it("deletes the challenges that expired", async () => {
      const { store } = harness();
      const expired = aWebauthnChallenge({ expiresAt: at(10) });
      const live = aWebauthnChallenge({ expiresAt: at(30) });
      await store.webauthnChallenges.insert(expired);
      await store.webauthnChallenges.insert(live);
      expect(await store.webauthnChallenges.deleteExpired(at(20))).toBeGreaterThanOrEqual(1);
      expect(await store.webauthnChallenges.consume(expired.id, "authentication", null)).toBeNull();
      expect(await store.webauthnChallenges.consume(live.id, "authentication", null)).toEqual(live);
    });
  });
}
