import { describeAuditLogContract } from "./audit-log.contract.js";
import type { MakeStore } from "./harness.js";
import { describeIdentityRepositoryContract } from "./identity-repository.contract.js";
import { describeLockContract } from "./locks.contract.js";
import { describeOneTimeTokenContract } from "./one-time-tokens.contract.js";
import { describeRefreshTokenContract } from "./refresh-tokens.contract.js";
import { describeSessionStoreContract } from "./session-store.contract.js";
import { describeUserRepositoryContract } from "./user-repository.contract.js";

/** Every contract of the `Store` ports, against stores made by `makeStore` (one per test). */
export function describeStoreContract(name: string, makeStore: MakeStore): void {
  describeUserRepositoryContract(name, makeStore);
  describeIdentityRepositoryContract(name, makeStore);
  describeSessionStoreContract(name, makeStore);
  describeRefreshTokenContract(name, makeStore);
  describeLockContract(name, makeStore);
  describeAuditLogContract(name, makeStore);
  describeOneTimeTokenContract(name, makeStore);
}
