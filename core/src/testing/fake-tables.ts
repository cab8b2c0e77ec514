import type { AuditEntry, Factor, Identity, User } from "../accounts/index.js";
import type { OneTimeToken } from "../messaging/index.js";
import type { Challenge, FactorAttempts } from "../mfa/index.js";
import type { Passkey, WebauthnChallenge } from "../passkeys/index.js";
import type { FlowState } from "../pkce/index.js";
import type { RefreshTokenRecord, Session } from "../sessions/index.js";

/** In-memory tables; transactions just run the callback (no isolation, no rollback). */
export interface FakeTables {
  users: Map<string, User>;
  identities: Map<string, Identity>;
  sessions: Map<string, Session>;
  tokens: Map<string, RefreshTokenRecord>;
  audit: AuditEntry[];
  oneTimeTokens: Map<string, OneTimeToken>;
  flowStates: Map<string, FlowState>;
  factors: Map<string, Factor>;
  challenges: Map<string, Challenge>;
  /** The guessing state of factors that were ever attempted (`mfa_factor_attempts`). */
  factorAttempts: Map<string, FactorAttempts>;
  /** The factor that raised each aal2 session (`sessions.factor_id`). */
  sessionFactors: Map<string, string>;
  passkeys: Map<string, Passkey>;
  webauthnChallenges: Map<string, WebauthnChallenge>;
}

export function emptyTables(): FakeTables {
  return {
    users: new Map(),
    identities: new Map(),
    sessions: new Map(),
    tokens: new Map(),
    audit: [],
    oneTimeTokens: new Map(),
    flowStates: new Map(),
    factors: new Map(),
    challenges: new Map(),
    factorAttempts: new Map(),
    sessionFactors: new Map(),
    passkeys: new Map(),
    webauthnChallenges: new Map(),
  };
}
