import type { FlowState, FlowStateStore } from "../../pkce/index.js";

/** In-memory flow states by id; deleting is synchronous, so of two deleters exactly one wins. */
export function fakeFlowStates(states: Map<string, FlowState>): FlowStateStore {
  return {
    create: async (state) => void states.set(state.id, state),
    consume: async (id) => {
      const found = states.get(id) ?? null;
      states.delete(id);
      return found;
    },
    issueCode: async (userId, method, authCodeHash, now) => {
      const newest = [...states.values()]
        .filter((s) => s.userId === userId && s.authenticationMethod === method && s.codeChallenge !== null)
        .sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime())[0];
      if (!newest) return null;
      const issued = { ...newest, authCodeHash, authCodeIssuedAt: now, updatedAt: now };
      states.set(issued.id, issued);
      return issued;
    },
    lockByCode: async (hash) => [...states.values()].find((s) => s.authCodeHash === hash) ?? null,
    delete: async (id) => states.delete(id),
    deleteForUser: async (userId) => {
      const mine = [...states.values()].filter((s) => s.userId === userId || s.linkingTargetId === userId);
      for (const s of mine) states.delete(s.id);
      return mine.length;
    },
  };
}
