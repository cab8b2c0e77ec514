import { describeAuditLogContract } from "./accounts/audit-log.contract.js";
import { describeIdentityRepositoryContract } from "./accounts/identity-repository.contract.js";
import { describeSignInFailuresContract } from "./accounts/sign-in-failures.contract.js";
import { describeUserRepositoryContract } from "./accounts/user-repository.contract.js";
import { describeExternalIdentityContract } from "./external/external-identities.contract.js";
import type { MakeStore } from "./harness.js";
import { describeOneTimeTokenContract } from "./messaging/one-time-tokens.contract.js";
import { describeFactorAttemptsContract } from "./mfa/attempts.contract.js";
import { describeFactorStoreContract } from "./mfa/factors.contract.js";
import { describeRecoveryCodeStoreContract } from "./mfa/recovery-codes.contract.js";
import { describeOAuthStoreContract } from "./oauth-server/oauth-store.contract.js";
import { describePasskeyStoreContract } from "./passkeys/passkeys.contract.js";
import { describeFlowStateContract } from "./pkce/flow-states.contract.js";
import { describeLockContract } from "./sessions/locks.contract.js";
import { describePasswordGrantContract } from "./sessions/password-grant.contract.js";
import { describeRefreshGrantContract } from "./sessions/refresh-grant.contract.js";
import { describeRefreshTokenContract } from "./sessions/refresh-tokens.contract.js";
import { describeSessionStoreContract } from "./sessions/session-store.contract.js";

/** Every contract of the `Store` ports, against stores made by `makeStore` (one per test). */
export function describeStoreContract(name: string, makeStore: MakeStore): void {
  describeUserRepositoryContract(name, makeStore);
  describeIdentityRepositoryContract(name, makeStore);
  describeSessionStoreContract(name, makeStore);
  describeRefreshTokenContract(name, makeStore);
  describeRefreshGrantContract(name, makeStore);
  describePasswordGrantContract(name, makeStore);
  describeLockContract(name, makeStore);
  describeAuditLogContract(name, makeStore);
  describeOneTimeTokenContract(name, makeStore);
  describeFlowStateContract(name, makeStore);
  describeExternalIdentityContract(name, makeStore);
  describeFactorStoreContract(name, makeStore);
  describeFactorAttemptsContract(name, makeStore);
  describeRecoveryCodeStoreContract(name, makeStore);
  describeSignInFailuresContract(name, makeStore);
  describePasskeyStoreContract(name, makeStore);
  describeOAuthStoreContract(name, makeStore);
}
