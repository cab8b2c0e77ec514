/** Sessions: sign-in, refresh, logout and authentication of access tokens. */
export * from "./authenticate.js";
export * from "./claims.js";
export * from "./grants.js";
export * from "./logout.js";
export * from "./ports/session-store.js";
export type * from "./ports/token-signer.js";
export * from "./refresh-decision.js";
export * from "./refresh-session.js";
export type * from "./session.js";
export * from "./session-limits.js";
export type * from "./settings.js";
export * from "./sign-in-password.js";
export {
  issueSession,
  type SessionTokens,
  type StartedSession,
  signAccessToken,
  signOutcome,
  signSession,
  type Unsigned,
} from "./steps/issue-session.js";
export * from "./token-kind.js";
export * from "./user-sessions.js";
