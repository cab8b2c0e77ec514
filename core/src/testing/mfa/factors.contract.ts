import { describe, expect, it } from "vitest";
import type { Factor } from "../../accounts/index.js";
import type { Challenge } from "../../mfa/index.js";
import { aSession, at, aUser, type MakeStore, newId, useStore } from "../harness.js";

/** A factor of `userId` with a unique id; TOTP unless told otherwise. */
export function aFactor(userId: string, fields: Partial<Factor> = {}): Factor {
  return {
    id: newId(),
    userId,
    friendlyName: "",
    factorType: "totp",
    status: "unverified",
    secret: "sealed-secret",
    phone: null,
    createdAt: at(0),
    updatedAt: at(0),
    lastChallengedAt: null,
    ...fields,
  };
}

export function aChallenge(factorId: string, fields: Partial<Challenge> = {}): Challenge {
  return {
    id: newId(),
    factorId,
    createdAt: at(1),
    verifiedAt: null,
    ipAddress: "127.0.0.1",
    otpCode: null,
    attempts: 0,
    ...fields,
  };
}

/** The MFA ports: factors, their challenges, and the assurance of the sessions they raise. */
export function describeFactorStoreContract(name: string, makeStore: MakeStore): void {
  describe(`${name}: FactorStore, ChallengeStore, SessionAssurance`, () => {
    const harness = useStore(makeStore);

    async function aStoredUser() {
      const user = aUser();
      await harness().store.users.insert(user);
      return user;
    }

    it("stores factors, lists a user's oldest first, and finds one only for its owner", async () => {
      const { store } = harness();
      const user = await aStoredUser();
      const other = await aStoredUser();
      const newer = aFactor(user.id, { createdAt: at(5), friendlyName: "b", lastChallengedAt: at(6) });
      const older = aFactor(user.id, {
        factorType: "phone",
        secret: null,
        phone: "15551234567",
        friendlyName: "a",
      });
      expect(await store.factors.insert(newer)).toBe("inserted");
      expect(await store.factors.insert(older)).toBe("inserted");
      expect(await store.factors.listByUser(user.id)).toEqual([older, newer]);
      expect(await store.factors.findOwned(user.id, newer.id)).toEqual(newer);
      expect(await store.factors.findOwned(other.id, newer.id)).toBeNull();
      expect(await store.factors.findOwned(user.id, "not-a-uuid")).toBeNull();
      expect((await store.users.findWithIdentities(user.id))?.factors).toEqual([older, newer]);
    });

    it("refuses a second factor of one user with the same non-empty name or phone", async () => {
      const { store } = harness();
      const user = await aStoredUser();
      const other = await aStoredUser();
      await store.factors.insert(
        aFactor(user.id, { friendlyName: "phone", factorType: "phone", phone: "1555" }),
      );
      expect(await store.factors.insert(aFactor(user.id, { friendlyName: "phone" }))).toBe("name_taken");
      expect(await store.factors.insert(aFactor(user.id, { factorType: "phone", phone: "1555" }))).toBe(
        "phone_taken",
      );
      expect(await store.factors.insert(aFactor(other.id, { friendlyName: "phone" }))).toBe("inserted");
      expect(await store.factors.insert(aFactor(user.id))).toBe("inserted");
      expect(await store.factors.insert(aFactor(user.id))).toBe("inserted");
      const renamed = aFactor(user.id, { friendlyName: "other" });
      await store.factors.insert(renamed);
      expect(await store.factors.update({ ...renamed, friendlyName: "phone" })).toBe("name_taken");
      expect(await store.factors.update({ ...renamed, status: "verified", friendlyName: "x" })).toBe(
        "updated",
      );
      expect(await store.factors.findOwned(user.id, renamed.id)).toMatchObject({
        status: "verified",
        friendlyName: "x",
      });
    });

    it("deletes unverified factors by type or age, and a factor with its challenges", async () => {
      const { store } = harness();
      const user = await aStoredUser();
      const kept = aFactor(user.id, { friendlyName: "kept" });
      const dropped = aFactor(user.id, { friendlyName: "dropped" });
      const verified = aFactor(user.id, { friendlyName: "verified", status: "verified" });
      const phone = aFactor(user.id, {
        friendlyName: "phone",
        factorType: "phone",
        phone: "1555",
        createdAt: at(9),
      });
      for (const f of [kept, dropped, verified, phone]) await store.factors.insert(f);
      expect(await store.factors.deleteUnverified(user.id, "totp", kept.id)).toBe(1);
      expect((await store.factors.listByUser(user.id)).map((f) => f.id)).toEqual([
        kept.id,
        verified.id,
        phone.id,
      ]);
      expect(await store.factors.deleteUnverifiedBefore(user.id, at(5))).toBe(1);
      expect((await store.factors.listByUser(user.id)).map((f) => f.id)).toEqual([verified.id, phone.id]);
      const challenge = aChallenge(phone.id, { otpCode: "sealed-code" });
      await store.challenges.insert(challenge);
      expect(await store.challenges.findOfFactor(phone.id, challenge.id)).toEqual(challenge);
      expect(await store.factors.delete(phone.id)).toBe(true);
      expect(await store.challenges.findOfFactor(phone.id, challenge.id)).toBeNull();
      expect(await store.factors.delete(phone.id)).toBe(false);
    });

    it("uses a challenge once, and finds it only through its factor", async () => {
      const { store } = harness();
      const user = await aStoredUser();
      const factor = aFactor(user.id);
      const another = aFactor(user.id, { friendlyName: "another" });
      await store.factors.insert(factor);
      await store.factors.insert(another);
      const challenge = aChallenge(factor.id);
      await store.challenges.insert(challenge);
      expect(await store.challenges.findOfFactor(another.id, challenge.id)).toBeNull();
      expect(await store.challenges.markVerified(challenge.id, at(2))).toBe(true);
      expect(await store.challenges.markVerified(challenge.id, at(3))).toBe(false);
      expect(await store.challenges.findOfFactor(factor.id, challenge.id)).toMatchObject({
        verifiedAt: at(2),
      });
      await store.challenges.delete(challenge.id);
      expect(await store.challenges.findOfFactor(factor.id, challenge.id)).toBeNull();
    });

    it("raises a session to aal2, ends the user's other aal1 sessions, and lowers it when its factor goes", async () => {
      const { store } = harness();
      const user = await aStoredUser();
      const factor = aFactor(user.id, { status: "verified" });
      await store.factors.insert(factor);
      const raised = aSession(user);
      const otherAal1 = aSession(user);
      const otherAal2 = aSession(user, { aal: "aal2" });
      for (const s of [raised, otherAal1, otherAal2]) await store.sessions.create(s);
      const amr = [...raised.amr, { method: "totp", timestamp: 1_900_000_000 }];
      await store.assurance.raise(raised.id, { amr, factorId: factor.id, at: at(3) });
      expect(await store.sessions.find(raised.id)).toMatchObject({ aal: "aal2", amr, updatedAt: at(3) });
      expect(await store.assurance.deleteBelowAal2(user.id, raised.id)).toBe(1);
      expect(await store.sessions.find(otherAal1.id)).toBeNull();
      expect(await store.sessions.find(otherAal2.id)).not.toBeNull();
      expect(await store.assurance.lowerRaisedBy(factor.id, "totp", at(4))).toBe(1);
      await store.factors.delete(factor.id);
      expect(await store.sessions.find(raised.id)).toMatchObject({ aal: "aal1", amr: raised.amr });
      expect(await store.sessions.find(otherAal2.id)).toMatchObject({ aal: "aal2" });
    });
  });
}
