import type { Repositories, Store } from "../store.js";
import { fakeAudit } from "./accounts/fake-audit.js";
import { fakeSignInFailures } from "./accounts/fake-sign-in-failures.js";
import { fakeIdentities, fakeUsers } from "./accounts/fake-users.js";
import { fakeCustomProviders } from "./custom-providers/fake-custom-providers.js";
import { fakeExternalIdentities } from "./external/fake-external-identities.js";
import { emptyTables, type FakeTables } from "./fake-tables.js";
import { fakeHookFunctions } from "./hooks/fake-hooks.js";
import { fakeOneTimeTokens } from "./messaging/fake-one-time-tokens.js";
import { fakeQuota } from "./messaging/fake-quota.js";
import { fakeAssurance, fakeChallenges, fakeFactors } from "./mfa/fake-mfa.js";
import { fakeRecoveryCodes } from "./mfa/fake-recovery-codes.js";
import {
  emptyOAuthTables,
  fakeOAuthAuthorizations,
  fakeOAuthClientAssertions,
  fakeOAuthClients,
  fakeOAuthConsents,
  fakeOAuthPushedRequests,
  fakeOAuthScopes,
} from "./oauth-server/fake-oauth-server.js";
import { fakePasskeys, fakeWebauthnChallenges } from "./passkeys/fake-passkeys.js";
import { fakeFlowStates } from "./pkce/fake-flow-states.js";
import { rowLocks } from "./row-locks.js";
import { fakeSessions } from "./sessions/fake-sessions.js";

export type { FakeTables } from "./fake-tables.js";

/** An in-memory `Store` whose tables a test can inspect. */
export function fakeStore(): Store & { tables: FakeTables } {
  const tables = emptyTables();
  const oauth = emptyOAuthTables();
  const repos: Repositories = {
    users: fakeUsers(tables),
    identities: fakeIdentities(tables),
    sessions: fakeSessions(tables),
    audit: fakeAudit(tables),
    oneTimeTokens: fakeOneTimeTokens(tables.oneTimeTokens),
    quota: fakeQuota(),
    flowStates: fakeFlowStates(tables.flowStates),
    externalIdentities: fakeExternalIdentities(tables),
    factors: fakeFactors(tables),
    challenges: fakeChallenges(tables),
    assurance: fakeAssurance(tables),
    recoveryCodes: fakeRecoveryCodes(),
    signInFailures: fakeSignInFailures(),
    passkeys: fakePasskeys(tables),
    webauthnChallenges: fakeWebauthnChallenges(tables),
    oauthClients: fakeOAuthClients(oauth, tables),
    oauthAuthorizations: fakeOAuthAuthorizations(oauth),
    oauthConsents: fakeOAuthConsents(oauth, tables),
    oauthPushedRequests: fakeOAuthPushedRequests(oauth),
    oauthClientAssertions: fakeOAuthClientAssertions(oauth),
    oauthScopes: fakeOAuthScopes(oauth),
    customProviders: fakeCustomProviders(),
  };
  const begin = rowLocks();
  const transaction: Store["transaction"] = async (fn) => {
    const locks = begin();
    const { users, sessions, factors, oauthAuthorizations, signInFailures } = repos;
    try {
      return await fn({
        ...repos,
        users: {
          ...users,
          lock: async (id) => {
            await locks.lock(`users/${id}`);
            return users.lock(id);
          },
        },
        sessions: {
          ...sessions,
          lock: async (id) => {
            await locks.lock(`sessions/${id}`);
            return sessions.lock(id);
          },
        },
        oauthAuthorizations: {
          ...oauthAuthorizations,
          lockApprovedByCode: async (hash) => {
            await locks.lock(`oauth-codes/${hash}`);
            return oauthAuthorizations.lockApprovedByCode(hash);
          },
          lockByDeviceCode: async (hash) => {
            await locks.lock(`oauth-device-codes/${hash}`);
            return oauthAuthorizations.lockByDeviceCode(hash);
          },
        },
        signInFailures: {
          ...signInFailures,
          lock: async (key) => {
            await locks.lock(`sign-in-failures/${key}`);
            return signInFailures.lock(key);
          },
        },
        factors: {
          ...factors,
          lockOwned: async (userId, id) => {
            await locks.lock(`factors/${id}`);
            return factors.lockOwned(userId, id);
          },
        },
      });
    } finally {
      locks.releaseAll();
    }
  };
  return { ...repos, hookFunctions: fakeHookFunctions(), tables, transaction };
}
