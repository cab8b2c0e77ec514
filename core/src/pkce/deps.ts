import type { AuditLog, IdentityRepository, UserFactors, UserRepository } from "../accounts/index.js";
import type { KernelDeps, Transactor } from "../kernel/index.js";
import type { SessionStore, TokenSigner } from "../sessions/index.js";
import type { FlowStateStore } from "./ports/flow-state-store.js";

/** The repositories of PKCE flows: the flow states, and what issuing the session they hand over needs. */
export interface PkceRepositories {
  readonly users: UserRepository;
  readonly identities: IdentityRepository;
  readonly audit: AuditLog;
  readonly factors: UserFactors;
  readonly sessions: SessionStore;
  readonly flowStates: FlowStateStore;
}

export type PkceStore = PkceRepositories & Transactor<PkceRepositories>;

/** The ports the PKCE use cases may use. */
export interface PkceDeps extends KernelDeps {
  readonly store: PkceStore;
  readonly signer: TokenSigner;
}
