import type { UserWithIdentities } from "../accounts/index.js";
import type { Result } from "../kernel/index.js";
import type { SessionTokens, Unsigned } from "../sessions/index.js";
import type { SignupDeps } from "./deps.js";

/**
 * A session when the account is usable at once (autoconfirm, anonymous), else the unconfirmed user
 * with the identities the answer shows (see `signUp`).
 */
export type SignUpOutcome =
  | { kind: "session"; tokens: SessionTokens }
  | { kind: "user"; user: UserWithIdentities };
/** A sign-up as its transaction commits it: a session's access token is signed after the commit. */
export type Committed = Result<Unsigned<SignUpOutcome>>;

export type SignUpDeps = Omit<SignupDeps, "hooks"> & Partial<Pick<SignupDeps, "hooks">>;
