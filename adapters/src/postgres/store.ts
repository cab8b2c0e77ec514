import type { AccountsRepositories, Repositories, Store } from "@authsvc/core";
import type { Sql, TransactionSql } from "postgres";
import { postgresAuditLog } from "./audit-log.js";
import { postgresIdentityRepository } from "./identity-repository.js";
import { assertValidNamespace } from "./migrate.js";
import { postgresOneTimeTokenStore } from "./one-time-token-store.js";
import type { Queryable } from "./rows.js";
import { postgresSendQuota } from "./send-quota.js";
import { postgresSessionStore } from "./session-store.js";
import { rejectingUnstorableInput } from "./unstorable-input.js";
import { postgresUserRepository } from "./user-repository.js";

export interface PostgresStoreOptions {
  /** The schema the migrations created (DB_NAMESPACE, default `auth`). */
  namespace: string;
}

/** The accounts slice's repositories. */
function accountsRepositories(
  sql: Queryable,
  namespace: string,
  transaction?: TransactionSql,
): AccountsRepositories {
  return {
    users: postgresUserRepository(sql, { namespace, transaction }),
    identities: postgresIdentityRepository(sql, { namespace }),
    audit: postgresAuditLog(sql, { namespace }),
  };
}

/** The sessions slice's own repository. */
function sessionsRepositories(sql: Queryable, namespace: string): Pick<Repositories, "sessions"> {
  return { sessions: postgresSessionStore(sql, { namespace }) };
}

/** The verification slice's own repositories. */
function verificationRepositories(
  sql: Queryable,
  namespace: string,
): Pick<Repositories, "oneTimeTokens" | "quota"> {
  return {
    oneTimeTokens: postgresOneTimeTokenStore(sql, { namespace }),
    quota: postgresSendQuota(sql, { namespace }),
  };
}

/**
 * Every slice's repositories on `sql`; unstorable input (see `unstorable-input.ts`) is answered as a
 * `validation_failed` failure by every one of them.
 */
function repositories(sql: Queryable, namespace: string, transaction?: TransactionSql): Repositories {
  const repos: Repositories = {
    ...accountsRepositories(sql, namespace, transaction),
    ...sessionsRepositories(sql, namespace),
    ...verificationRepositories(sql, namespace),
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
  return {
    ...repositories(sql, namespace),
    // postgres.js types begin's result as UnwrapPromiseArray<T>; it awaits an array result element-wise,
    // which for the values a use case returns is the value itself.
    transaction: <T>(fn: (repos: Repositories) => Promise<T>) =>
      sql.begin((tx) => fn(repositories(tx, namespace, tx))) as Promise<T>,
  };
}
