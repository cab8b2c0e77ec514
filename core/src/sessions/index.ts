/** Sessions: sign-in, refresh, logout and authentication of access tokens. */
export { authenticate, authenticateAdmin, type RequestAudience } from "./authenticate.js";
export {
  type AccessTokenClaims,
  type ActorClaim,
  accessTokenClaims,
  type MachineTokenClaims,
} from "./claims.js";
export * from "./grants.js";
export { logout } from "./logout.js";
export * from "./ports/session-store.js";
export type * from "./ports/token-signer.js";
export { decideRefresh } from "./refresh-decision.js";
export * from "./refresh-session.js";
export type * from "./session.js";
export { sessionEnd, supersededBy } from "./session-limits.js";
export type { SessionsSettings } from "./settings.js";
export { passwordGrant, signInWithPassword } from "./sign-in-password.js";
export {
  issueSession,
  type SessionTokens,
  type StartedSession,
  signOutcome,
  signSession,
  type Unsigned,
} from "./steps/issue-session.js";
export { type BearerKind, ID_TOKEN_USE, type TokenKind, tokenKind } from "./token-kind.js";
export * from "./user-sessions.js";
