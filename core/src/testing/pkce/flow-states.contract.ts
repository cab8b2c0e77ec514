import { describe, expect, it } from "vitest";
import type { FlowState } from "../../pkce/index.js";
import { at, type MakeStore, newHash, newId, useStore } from "../harness.js";

/** A flow state with unique ids; every optional field unset unless given. */
export function aFlowState(fields: Partial<FlowState> = {}): FlowState {
  return {
    id: newId(),
    userId: null,
    authCodeHash: null,
    codeChallenge: "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM",
    codeChallengeMethod: "s256",
    providerType: "email",
    providerAccessToken: null,
    providerRefreshToken: null,
    authenticationMethod: "email/signup",
    authCodeIssuedAt: null,
    referrer: null,
    linkingTargetId: null,
    createdAt: at(0),
    updatedAt: at(0),
    ...fields,
  };
}

/** The `FlowStateStore` contract: codes are found by their hash only, and every use is single. */
export function describeFlowStateContract(name: string, makeStore: MakeStore): void {
  describe(`${name}: FlowStateStore`, () => {
    const harness = useStore(makeStore);

    it("gives the newest PKCE flow of a user and method its code, and finds it by the code's hash", async () => {
      const { store } = harness();
      const userId = newId();
      const older = aFlowState({ userId, createdAt: at(1), updatedAt: at(1) });
      const newer = aFlowState({ userId, createdAt: at(2), updatedAt: at(2), codeChallengeMethod: "plain" });
      const otherMethod = aFlowState({ userId, createdAt: at(3), authenticationMethod: "recovery" });
      for (const s of [older, newer, otherMethod]) await store.flowStates.create(s);
      const hash = newHash();
      const issued = await store.flowStates.issueCode(userId, "email/signup", hash, at(10));
      expect(issued).toMatchObject({ id: newer.id, authCodeHash: hash, authCodeIssuedAt: at(10) });
      expect(await store.flowStates.lockByCode(hash)).toEqual({
        ...newer,
        authCodeHash: hash,
        authCodeIssuedAt: at(10),
        updatedAt: at(10),
      });
      expect(await store.flowStates.lockByCode(newHash())).toBeNull();
      expect(await store.flowStates.issueCode(newId(), "email/signup", newHash(), at(10))).toBeNull();
    });

    it("stores every field and consumes a state once", async () => {
      const { store } = harness();
      const state = aFlowState({
        userId: newId(),
        authCodeHash: newHash(),
        providerType: "keycloak",
        providerAccessToken: "pat",
        providerRefreshToken: "prt",
        authenticationMethod: "oauth",
        authCodeIssuedAt: at(5),
        referrer: "http://localhost:3000/welcome",
        linkingTargetId: newId(),
      });
      await store.flowStates.create(state);
      const [first, second] = await Promise.all([
        store.flowStates.consume(state.id),
        store.flowStates.consume(state.id),
      ]);
      expect([first, second].filter((s) => s !== null)).toEqual([state]);
      expect(await store.flowStates.consume("not-a-uuid")).toBeNull();
    });

    it("lets exactly one of two concurrent exchanges of one code delete its flow state", async () => {
      const { store } = harness();
      const hash = newHash();
      const state = aFlowState({ userId: newId(), authCodeHash: hash, authCodeIssuedAt: at(1) });
      await store.flowStates.create(state);
      const exchange = () =>
        store.transaction(async (repos) => {
          const found = await repos.flowStates.lockByCode(hash);
          return found !== null && (await repos.flowStates.delete(found.id));
        });
      const results = await Promise.all([exchange(), exchange()]);
      expect(results.filter(Boolean)).toHaveLength(1);
      expect(await store.flowStates.lockByCode(hash)).toBeNull();
    });

    it("deletes a user's flow states and the linking flows that target it, and no one else's", async () => {
      const { store } = harness();
      const userId = newId();
      const code = newHash();
      const own = aFlowState({ userId, authCodeHash: code, authCodeIssuedAt: at(1) });
      const linking = aFlowState({ linkingTargetId: userId, authenticationMethod: "oauth" });
      const other = aFlowState({ userId: newId() });
      for (const s of [own, linking, other]) await store.flowStates.create(s);
      expect(await store.flowStates.deleteForUser(userId)).toBe(2);
      expect(await store.flowStates.lockByCode(code)).toBeNull();
      expect(await store.flowStates.consume(linking.id)).toBeNull();
      expect(await store.flowStates.consume(other.id)).toEqual(other);
      expect(await store.flowStates.deleteForUser("not-a-uuid")).toBe(0);
    });
  });
}
