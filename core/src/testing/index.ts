/** In-memory fakes and port contract suites, for tests only. */

export * from "./accounts/audit-log.contract.js";
export * from "./accounts/fake-hasher.js";
export * from "./accounts/fake-leaked-passwords.js";
export * from "./accounts/identity-repository.contract.js";
export * from "./accounts/user-repository.contract.js";
export * from "./custom-providers/fake-custom-providers.js";
export * from "./dpop/fake-dpop.js";
export * from "./external/external-identities.contract.js";
export * from "./external/fake-external-identities.js";
export * from "./external/fake-providers.js";
export * from "./fake-deps.js";
export * from "./fake-store.js";
export * from "./guards/captcha-verifier.contract.js";
export * from "./guards/fake-captcha.js";
export * from "./guards/request-limiter.contract.js";
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
} from "./harness.js";
export * from "./hooks/fake-hooks.js";
export * from "./kernel/fakes.js";
export * from "./messaging/fake-one-time-tokens.js";
export * from "./messaging/fake-quota.js";
export * from "./messaging/fake-senders.js";
export * from "./messaging/one-time-tokens.contract.js";
export * from "./mfa/attempts.contract.js";
export * from "./mfa/factors.contract.js";
export * from "./mfa/fake-mfa.js";
export * from "./oauth-server/fake-logout-deliveries.js";
export * from "./oauth-server/fake-oauth-server.js";
export * from "./oauth-server/oauth-fixtures.js";
export * from "./oauth-server/oauth-store.contract.js";
export * from "./pkce/fake-flow-states.js";
export * from "./pkce/flow-states.contract.js";
export * from "./sessions/fake-signer.js";
export * from "./sessions/locks.contract.js";
export * from "./sessions/refresh-tokens.contract.js";
export * from "./sessions/session-store.contract.js";
export * from "./sso/fake-sso.js";
export * from "./store.contract.js";
