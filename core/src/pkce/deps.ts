import type { Transactor } from "../kernel/index.js";
import type { SessionsDeps, SessionsRepositories } from "../sessions/index.js";
import type { FlowStateStore } from "./ports/flow-state-store.js";

/** The repositories of PKCE flows: the sessions' and the flow states. */
export interface PkceRepositories extends SessionsRepositories {
  readonly flowStates: FlowStateStore;
}

export type PkceStore = PkceRepositories & Transactor<PkceRepositories>;

/** The ports the PKCE use cases may use. */
export interface PkceDeps extends Omit<SessionsDeps, "store"> {
  readonly store: PkceStore;
}
