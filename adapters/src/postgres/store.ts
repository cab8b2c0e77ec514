import type { Repositories, Store } from "@authsvc/core";
import type { Sql, TransactionSql } from "postgres";
import { postgresAuditLog } from "./audit-log.js";
import { postgresIdentityRepository } from "./identity-repository.js";
import { assertValidNamespace } from "./migrate.js";
import { postgresOneTimeTokenStore } from "./one-time-token-store.js";
import type { Queryable } from "./rows.js";
import { postgresSendQuota } from "./send-quota.js";
import { postgresSessionStore } from "./session-store.js";
import { postgresUserRepository } from "./user-repository.js";

export interface PostgresStoreOptions {
  /** The schema the migrations created (DB_NAMESPACE, default `auth`). */
  namespace: string;
}

function repositories(sql: Queryable, namespace: string, transaction?: TransactionSql): Repositories {
  return {
    users: postgresUserRepository(sql, { namespace, transaction }),
    identities: postgresIdentityRepository(sql, { namespace }),
    sessions: postgresSessionStore(sql, { namespace }),
    audit: postgresAuditLog(sql, { namespace }),
    oneTimeTokens: postgresOneTimeTokenStore(sql, { namespace }),
    quota: postgresSendQuota(sql, { namespace }),
  };
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
