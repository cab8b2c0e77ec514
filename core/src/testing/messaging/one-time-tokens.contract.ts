import { describe, expect, it } from "vitest";
import type { User } from "../../accounts/index.js";
import type { OneTimeToken, OneTimeTokenStore, OneTimeTokenType } from "../../messaging/index.js";
import { at, type MakeStore, newHash, newId, seedUser, useStore } from "../harness.js";

/** A token of `user` with fresh hashes, sent to the user's email. */
function aOneTimeToken(user: User, fields: Partial<OneTimeToken> = {}): OneTimeToken {
  return {
    id: newId(),
    userId: user.id,
    type: "confirmation_token",
    tokenHash: newHash(),
    otpHash: newHash(),
    relatesTo: user.email ?? "",
    createdAt: at(0),
    ...fields,
  };
}

const EVERY_TYPE: readonly OneTimeTokenType[] = [
  "confirmation_token",
  "reauthentication_token",
  "recovery_token",
  "email_change_token_new",
  "email_change_token_current",
  "phone_change_token",
];

/** The `OneTimeTokenStore` contract; run it against every implementation. */
export function describeOneTimeTokenContract(name: string, makeStore: MakeStore): void {
  describe(`OneTimeTokenStore contract: ${name}`, () => {
    const harness = useStore(makeStore);
    const tokens = (): OneTimeTokenStore => harness().store.oneTimeTokens;

    async function seeded(fields: Partial<OneTimeToken> = {}) {
      const user = await seedUser(harness().store);
      const token = aOneTimeToken(user, fields);
      await tokens().put(token);
      return { user, token };
    }

    it("gives back a token exactly as put, for its user and type only", async () => {
      const { user, token } = await seeded({ type: "recovery_token", createdAt: at(42) });
      expect(await tokens().find(user.id, "recovery_token")).toEqual(token);
      expect(await tokens().find(user.id, "confirmation_token")).toBeNull();
      expect(await tokens().find(newId(), "recovery_token")).toBeNull();
      expect(await tokens().find("not-a-uuid", "recovery_token")).toBeNull();
    });

    it("stores every type, one token per type and user", async () => {
      const user = await seedUser(harness().store);
      const all = EVERY_TYPE.map((type) => aOneTimeToken(user, { type }));
      for (const token of all) await tokens().put(token);
      for (const token of all) expect(await tokens().find(user.id, token.type)).toEqual(token);
    });

    it("replaces the user's previous token of the same type, whose hashes then no longer work", async () => {
      const { user, token: old } = await seeded();
      const kept = aOneTimeToken(user, { type: "recovery_token" });
      await tokens().put(kept);
      const fresh = aOneTimeToken(user, { relatesTo: "other@example.com", createdAt: at(60) });
      await tokens().put(fresh);
      expect(await tokens().find(user.id, "confirmation_token")).toEqual(fresh);
      expect(await tokens().consumeByTokenHash(old.tokenHash, EVERY_TYPE)).toBeNull();
      expect(await tokens().consumeByOtp(old.relatesTo, old.otpHash, EVERY_TYPE)).toBeNull();
      expect(await tokens().find(user.id, "recovery_token")).toEqual(kept);
      expect(await tokens().consumeByTokenHash(fresh.tokenHash, ["confirmation_token"])).toEqual(fresh);
    });

    it("deletes a token after the given number of wrong codes, counting only its address and types", async () => {
      const { user, token } = await seeded({ type: "recovery_token" });
      const recovery: OneTimeTokenType[] = ["recovery_token"];
      for (let i = 0; i < 4; i++) await tokens().recordFailedAttempt(token.relatesTo, recovery, 5);
      await tokens().recordFailedAttempt("someone-else@example.com", recovery, 5);
      await tokens().recordFailedAttempt(token.relatesTo, ["confirmation_token"], 5);
      expect(await tokens().find(user.id, "recovery_token")).toEqual(token);
      await tokens().recordFailedAttempt(token.relatesTo, recovery, 5);
      expect(await tokens().find(user.id, "recovery_token")).toBeNull();
      expect(await tokens().consumeByOtp(token.relatesTo, token.otpHash, recovery)).toBeNull();
    });

    it("starts counting wrong codes again for a replacing token", async () => {
      const { user, token } = await seeded({ type: "recovery_token" });
      const recovery: OneTimeTokenType[] = ["recovery_token"];
      for (let i = 0; i < 4; i++) await tokens().recordFailedAttempt(token.relatesTo, recovery, 5);
      const fresh = aOneTimeToken(user, { type: "recovery_token", relatesTo: token.relatesTo });
      await tokens().put(fresh);
      await tokens().recordFailedAttempt(token.relatesTo, recovery, 5);
      expect(await tokens().consumeByOtp(fresh.relatesTo, fresh.otpHash, recovery)).toEqual(fresh);
    });

    it("consumes a token by its link hash exactly once", async () => {
      const { user, token } = await seeded();
      expect(await tokens().consumeByTokenHash(token.tokenHash, ["confirmation_token"])).toEqual(token);
      expect(await tokens().find(user.id, "confirmation_token")).toBeNull();
      expect(await tokens().consumeByTokenHash(token.tokenHash, ["confirmation_token"])).toBeNull();
      expect(await tokens().consumeByOtp(token.relatesTo, token.otpHash, ["confirmation_token"])).toBeNull();
    });

    it("consumes by link hash only for one of the given types; a refusal leaves the token usable", async () => {
      const { user, token } = await seeded({ type: "email_change_token_new" });
      expect(await tokens().consumeByTokenHash(token.tokenHash, ["confirmation_token"])).toBeNull();
      expect(await tokens().consumeByTokenHash(token.tokenHash, [])).toBeNull();
      expect(await tokens().consumeByTokenHash(newHash(), EVERY_TYPE)).toBeNull();
      expect(await tokens().consumeByTokenHash("", EVERY_TYPE)).toBeNull();
      expect(await tokens().find(user.id, "email_change_token_new")).toEqual(token);
      const types: OneTimeTokenType[] = ["email_change_token_current", "email_change_token_new"];
      expect(await tokens().consumeByTokenHash(token.tokenHash, types)).toEqual(token);
    });

    it("consumes a token by its code exactly once, which also spends the link", async () => {
      const { user, token } = await seeded({ type: "phone_change_token", relatesTo: "15550001234" });
      const types: OneTimeTokenType[] = ["phone_change_token"];
      expect(await tokens().consumeByOtp("15550001234", token.otpHash, types)).toEqual(token);
      expect(await tokens().find(user.id, "phone_change_token")).toBeNull();
      expect(await tokens().consumeByOtp("15550001234", token.otpHash, types)).toBeNull();
      expect(await tokens().consumeByTokenHash(token.tokenHash, types)).toBeNull();
    });

    it("refuses a code sent elsewhere, of another type or simply wrong, and keeps the token", async () => {
      const { user, token } = await seeded({ type: "recovery_token" });
      const recovery: OneTimeTokenType[] = ["recovery_token"];
      expect(await tokens().consumeByOtp("someone-else@example.com", token.otpHash, recovery)).toBeNull();
      expect(await tokens().consumeByOtp(token.relatesTo, token.otpHash, ["confirmation_token"])).toBeNull();
      expect(await tokens().consumeByOtp(token.relatesTo, newHash(), recovery)).toBeNull();
      expect(await tokens().consumeByOtp(token.relatesTo, token.tokenHash, recovery)).toBeNull();
      expect(await tokens().consumeByOtp(token.relatesTo, token.otpHash, [])).toBeNull();
      expect(await tokens().find(user.id, "recovery_token")).toEqual(token);
    });

    it("consumes only the matching user's token when two users hold tokens", async () => {
      const { user: alice, token: hers } = await seeded();
      const { user: bob, token: his } = await seeded();
      expect(await tokens().consumeByTokenHash(his.tokenHash, EVERY_TYPE)).toEqual(his);
      expect(await tokens().find(alice.id, "confirmation_token")).toEqual(hers);
      expect(await tokens().find(bob.id, "confirmation_token")).toBeNull();
    });

    it("deletes all of a user's tokens, or those of some types, and no one else's", async () => {
      const user = await seedUser(harness().store);
      for (const type of EVERY_TYPE) await tokens().put(aOneTimeToken(user, { type }));
      const { user: stranger, token: theirs } = await seeded();
      await tokens().deleteForUser(user.id, ["recovery_token", "phone_change_token"]);
      expect(await tokens().find(user.id, "recovery_token")).toBeNull();
      expect(await tokens().find(user.id, "phone_change_token")).toBeNull();
      expect(await tokens().find(user.id, "confirmation_token")).not.toBeNull();
      await tokens().deleteForUser(user.id, []);
      expect(await tokens().find(user.id, "confirmation_token")).not.toBeNull();
      await tokens().deleteForUser(user.id);
      for (const type of EVERY_TYPE) expect(await tokens().find(user.id, type)).toBeNull();
      await tokens().deleteForUser("not-a-uuid");
      expect(await tokens().find(stranger.id, "confirmation_token")).toEqual(theirs);
    });

    it("deletes a user's tokens with the user", async () => {
      const { user, token } = await seeded();
      expect(await harness().store.users.delete(user.id)).toBe(true);
      expect(await tokens().find(user.id, "confirmation_token")).toBeNull();
      expect(await tokens().consumeByTokenHash(token.tokenHash, EVERY_TYPE)).toBeNull();
    });

    it("works inside a transaction, and a put there is visible after commit", async () => {
      const user = await seedUser(harness().store);
      const token = aOneTimeToken(user);
      await harness().store.transaction((repos) => repos.oneTimeTokens.put(token));
      expect(await tokens().find(user.id, "confirmation_token")).toEqual(token);
      const taken = await harness().store.transaction((repos) =>
        repos.oneTimeTokens.consumeByOtp(token.relatesTo, token.otpHash, EVERY_TYPE),
      );
      expect(taken).toEqual(token);
    });

    it("hands a token by link hash to exactly one of ten concurrent consumers", async () => {
      const { token } = await seeded();
      const results = await Promise.all(
        Array.from({ length: 10 }, () => tokens().consumeByTokenHash(token.tokenHash, EVERY_TYPE)),
      );
      expect(results.filter((r) => r !== null)).toEqual([token]);
    });

    it("hands a token by code to exactly one of ten concurrent consumers", async () => {
      const { token } = await seeded();
      const results = await Promise.all(
        Array.from({ length: 10 }, () => tokens().consumeByOtp(token.relatesTo, token.otpHash, EVERY_TYPE)),
      );
      expect(results.filter((r) => r !== null)).toEqual([token]);
    });

    it("hands a token to exactly one of ten concurrent transactions that consume it", async () => {
      const { token } = await seeded();
      const results = await Promise.all(
        Array.from({ length: 10 }, () =>
          harness().store.transaction((repos) =>
            repos.oneTimeTokens.consumeByTokenHash(token.tokenHash, EVERY_TYPE),
          ),
        ),
      );
      expect(results.filter((r) => r !== null)).toEqual([token]);
    });

    it("hands a token to exactly one of concurrent consumers by link and by code together", async () => {
      const { token } = await seeded();
      const results = await Promise.all(
        Array.from({ length: 10 }, (_, i) =>
          i % 2 === 0
            ? tokens().consumeByTokenHash(token.tokenHash, EVERY_TYPE)
            : tokens().consumeByOtp(token.relatesTo, token.otpHash, EVERY_TYPE),
        ),
      );
      expect(results.filter((r) => r !== null)).toEqual([token]);
    });
  });
}
