import type { Repositories, Store } from "@authsvc/core";
import type { Sql, TransactionSql } from "postgres";
import { postgresAccountsRepositories } from "./accounts-store.js";
import { postgresCustomProviderStore } from "./custom-providers-store.js";
import { postgresExternalIdentities } from "./external-identities-store.js";
import { postgresHookFunctions } from "./hooks-store.js";
import { postgresMessagingRepositories } from "./messaging-store.js";
import {
  postgresChallengeStore,
  postgresFactorStore,
  postgresRecoveryCodeStore,
  postgresSessionAssurance,
} from "./mfa-store.js";
import { assertValidNamespace } from "./migrate.js";
import { postgresOAuthServerRepositories } from "./oauth-server-store.js";
import { postgresPasskeyStore, postgresWebauthnChallengeStore } from "./passkeys-store.js";
import { postgresFlowStateStore } from "./pkce-store.js";
import type { Queryable } from "./rows.js";
import { postgresSessionStore } from "./sessions-store.js";
import { postgresSignInFailures } from "./sign-in-failures-store.js";
import { rejectingUnstorableInput } from "./unstorable-input.js";

export interface PostgresStoreOptions {
  /** The schema the migrations created (DB_NAMESPACE, default `auth`). */
  namespace: string;
  /**
   * The pool runs unnamed statements (`prepare: false`: PgBouncer in transaction mode, the embedded
   * database). Default: what the pool was opened with.
   */
  unnamedStatements?: boolean;
}

/**
 * Every slice's repositories on `sql`; unstorable input (see `unstorable-input.ts`) is answered as a
 * `validation_failed` failure by every one of them.
 */
function repositories(
  sql: Queryable,
  namespace: string,
  unnamedStatements: boolean,
  transaction?: TransactionSql,
): Repositories {
  const repos: Repositories = {
    ...postgresAccountsRepositories(sql, { namespace, transaction }),
    sessions: postgresSessionStore(sql, { namespace, unnamedStatements }),
    ...postgresMessagingRepositories(sql, { namespace }),
    flowStates: postgresFlowStateStore(sql, { namespace }),
    externalIdentities: postgresExternalIdentities(sql, { namespace }),
    factors: postgresFactorStore(sql, { namespace }),
    challenges: postgresChallengeStore(sql, { namespace }),
    assurance: postgresSessionAssurance(sql, { namespace }),
    recoveryCodes: postgresRecoveryCodeStore(sql, { namespace }),
    signInFailures: postgresSignInFailures(sql, { namespace }),
    passkeys: postgresPasskeyStore(sql, { namespace }),
    webauthnChallenges: postgresWebauthnChallengeStore(sql, { namespace }),
    ...postgresOAuthServerRepositories(sql, { namespace }),
    customProviders: postgresCustomProviderStore(sql, { namespace }),
  };
  return Object.fromEntries(
    Object.entries(repos).map(([name, repository]) => [name, rejectingUnstorableInput(repository)]),
  ) as unknown as Repositories;
}

/**
 * The `Store` on a postgres.js pool. Direct repository calls each run on any pool connection
 * (autocommit); `transaction` runs the callback in `sql.begin`, with repositories bound to that
 * transaction's connection: it commits when the callback resolves and rolls back when it throws.
 * Statements of one transaction should be awaited one after another (not in Promise.all): a user
 * insert/update runs in a savepoint, and a statement sent meanwhile would be rolled back with it.
 */
export function postgresStore(sql: Sql, options: PostgresStoreOptions): Store {
  assertValidNamespace(options.namespace);
  const { namespace } = options;
  const unnamed = options.unnamedStatements ?? sql.options.prepare === false;
  return {
    ...repositories(sql, namespace, unnamed),
    hookFunctions: rejectingUnstorableInput(postgresHookFunctions(sql)),
    // postgres.js types begin's result as UnwrapPromiseArray<T>; it awaits an array result element-wise,
    // which for the values a use case returns is the value itself.
    transaction: <T>(fn: (repos: Repositories) => Promise<T>) =>
      sql.begin((tx) => fn(repositories(tx, namespace, unnamed, tx))) as Promise<T>,
  };
}
