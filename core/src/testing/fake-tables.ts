import type { AuditEntry, Identity, User } from "../accounts/index.js";
import type { FlowState } from "../pkce/index.js";
import type { RefreshTokenRecord, Session } from "../sessions/index.js";
import type { OneTimeToken } from "../verification/index.js";

/** In-memory tables; transactions just run the callback (no isolation, no rollback). */
export interface FakeTables {
  users: Map<string, User>;
  identities: Map<string, Identity>;
  sessions: Map<string, Session>;
  tokens: Map<string, RefreshTokenRecord>;
  audit: AuditEntry[];
  oneTimeTokens: Map<string, OneTimeToken>;
  flowStates: Map<string, FlowState>;
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
  };
}
