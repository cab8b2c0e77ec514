/** In-memory fakes and port contract suites, for tests only. */

export * from "./contracts/audit-log.contract.js";
export {
  aFullUser,
  anIdentity,
  aSession,
  aToken,
  aUser,
  type MakeStore,
  newHash,
  newId,
  type StoreHarness,
} from "./contracts/harness.js";
export * from "./contracts/identity-repository.contract.js";
export * from "./contracts/locks.contract.js";
export * from "./contracts/one-time-tokens.contract.js";
export * from "./contracts/refresh-tokens.contract.js";
export * from "./contracts/session-store.contract.js";
export * from "./contracts/store.contract.js";
export * from "./contracts/user-repository.contract.js";
export * from "./fake-crypto.js";
export * from "./fake-deps.js";
export * from "./fake-one-time-tokens.js";
export * from "./fake-store.js";
