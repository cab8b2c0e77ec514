/** Database: connection, pool, schema. Without a URL the server runs its embedded database. */
import * as k from "../kinds.js";
import type { Reader } from "../reader.js";
import { defineVariables } from "../variable.js";

const variable = defineVariables("Database");
export const variables = {
  driver: variable({
    key: "DB_DRIVER",
    kind: k.oneOf(["postgres"]),
    default: "postgres",
    description: "Database dialect. Only `postgres`.",
  }),
  url: variable({
    key: "DB_DATABASE_URL",
    aliases: ["AUTHSVC_DATABASE_URL", "DATABASE_URL"],
    kind: k.postgresUrl,
    computedDefault: "unset: embedded mode",
    description:
      "Postgres connection URL. It may name several hosts (`postgres://u:p@db1:5432,db2:5432/auth?target_session_attrs=read-write`): each connection goes to the first that accepts writes, so the pool follows the primary of a replicated pair (docs/operations.md). When no database URL is set the server runs in embedded mode: an embedded Postgres in `AUTHSVC_DATA_DIR`, with development defaults.",
  }),
  maxPoolSize: variable({
    key: "DB_MAX_POOL_SIZE",
    kind: k.wholeNumber(),
    default: "10",
    description:
      "Maximum open database connections of the requests' pool; 0 means unlimited (capped at 100). The cleanup (`CLEANUP_ENABLED`) opens one more of its own, so an instance holds at most this plus one: with the default, eight instances fit a default PostgreSQL (max_connections 100, 3 of them reserved). Each request needs a connection for one or two statements, so a few connections keep a database busy.",
  }),
  connMaxIdleTime: variable({
    key: "DB_CONN_MAX_IDLE_TIME",
    kind: k.duration(),
    default: "60s",
    description:
      "An idle database connection is closed after this long, so a quiet instance holds none; 0 keeps them open.",
  }),
  connMaxLifetime: variable({
    key: "DB_CONN_MAX_LIFETIME",
    kind: k.duration(),
    default: "30m",
    description: "A database connection is closed (and reopened when needed) at this age; 0 never.",
  }),
  connectTimeout: variable({
    key: "DB_CONNECT_TIMEOUT",
    kind: k.duration(1),
    default: "5s",
    description:
      "Longest wait for a new database connection to be established. When the database host stops answering without refusing (a network partition, a frozen server), requests fail with 503 after this long instead of waiting for the request deadline.",
  }),
  startupTimeout: variable({
    key: "DB_STARTUP_TIMEOUT",
    kind: k.duration(),
    default: "30s",
    description:
      "How long a start (and `migrate`, `cleanup`, `import-gotrue`) waits for the database to accept a connection: a refused connection, a host name that does not resolve yet, a connection timeout or a database still starting is tried again after 0.25 s, doubling up to 5 s, each failure logged as a warning; then the start fails naming the database URL (without its password) and the cause. An unknown database or role, or a wrong password, fails at once: waiting does not fix them. 0: one try.",
  }),
  preparedStatements: variable({
    key: "DB_PREPARED_STATEMENTS",
    kind: k.boolean,
    default: "true",
    description:
      "Use named prepared statements. Set false behind a pooler in transaction mode (PgBouncer) or when DATABASE_URL points at another process's embedded database.",
  }),
  namespace: variable({
    key: "DB_NAMESPACE",
    kind: k.sqlIdentifier,
    default: "auth",
    description: "Schema holding every table, so tables read `auth.users` as in Supabase.",
  }),
};

export interface DbConfig {
  readonly driver: "postgres";
  /** Undefined in embedded mode. */
  readonly url: string | undefined;
  /** 0 means unlimited. */
  readonly maxPoolSize: number;
  /** False: unnamed statements only (poolers in transaction mode, a shared embedded database). */
  readonly preparedStatements: boolean;
  /** The schema holding every table (`auth.users`, …). */
  readonly namespace: string;
  /** An idle connection is closed after this long (ms); 0 never. */
  readonly connMaxIdleTimeMs: number;
  /** A connection is closed at this age (ms); 0 never. */
  readonly connMaxLifetimeMs: number;
  /** Longest wait for a new connection (ms). */
  readonly connectTimeoutMs: number;
  /** How long a start waits for the database to accept a connection (ms); 0: one try. */
  readonly startupTimeoutMs: number;
  /** The variable the URL was set under (`DATABASE_URL` or one of its other names); undefined in embedded mode. */
  readonly urlVariable: string | undefined;
}

export const read = (r: Reader) => ({ ...r.getAll(variables), urlVariable: r.source(variables.url)?.name });

/** A database URL that is set but malformed is a problem, not a wish for the embedded database. */
export const isEmbedded = (r: Reader): boolean => !r.isSet(variables.url);

export function settle(values: ReturnType<typeof read>): { db: DbConfig } {
  const { connMaxIdleTime, connMaxLifetime, connectTimeout, startupTimeout, ...rest } = values;
  return {
    db: {
      ...rest,
      connMaxIdleTimeMs: connMaxIdleTime,
      connMaxLifetimeMs: connMaxLifetime,
      connectTimeoutMs: connectTimeout,
      startupTimeoutMs: startupTimeout,
    },
  };
}

declare module "../shape.js" {
  interface Config {
    readonly db: DbConfig;
  }
}
