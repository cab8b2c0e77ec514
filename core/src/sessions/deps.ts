import type { AccountsDeps, AccountsRepositories } from "../accounts/index.js";
import type { HooksRepositories } from "../hooks/index.js";
import type { Transactor } from "../kernel/index.js";
import type { SessionStore } from "./ports/session-store.js";
import type { TokenSigner } from "./ports/token-signer.js";

/** The repositories sessions use: the accounts', the session store, and Postgres-function hooks. */
export interface SessionsRepositories extends AccountsRepositories, HooksRepositories {
  readonly sessions: SessionStore;
}

export type SessionsStore = SessionsRepositories & Transactor<SessionsRepositories>;

/** The ports the sessions use cases may use. */
export interface SessionsDeps extends Omit<AccountsDeps, "store"> {
  readonly store: SessionsStore;
  readonly signer: TokenSigner;
}
