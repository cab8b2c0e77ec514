import postgres from "postgres";

/** The postgres.js client every adapter receives: a pool, or a transaction inside `sql.begin`. */
export type { Sql } from "postgres";

/** A NOTICE/WARNING the server sent (postgres.js parses its fields into a string map). */
export type PostgresNotice = postgres.Notice;

export interface ConnectPostgresOptions {
  /** `postgres://user:pass@host:port/db`. */
  url: string;
  /**
   * Upper bound on pool connections; 0 means "unlimited" as in GoTrue's DB_MAX_POOL_SIZE.
   * postgres.js has no unlimited mode, so 0 maps to {@link UNLIMITED_POOL_SIZE}.
   */
  maxPoolSize: number;
  /**
   * The url points at our embedded PGlite server (startEmbeddedPostgres). Its single backend is shared
   * by every connection, so named prepared statements would collide: use unnamed ones only.
   */
  embedded?: boolean;
  /** Where server notices go; by default they are dropped instead of postgres.js's console.log. */
  onNotice?: (notice: PostgresNotice) => void;
}

/**
 * What maxPoolSize 0 becomes. Go's database/sql "unlimited" opens connections until the server
 * refuses (53300 too_many_connections) and then fails requests; a finite cap makes a burst queue in the
 * pool instead. 100 is PostgreSQL's default max_connections, so one instance alone never causes 53300
 * on a default server; operators running many instances should set an explicit size.
 */
export const UNLIMITED_POOL_SIZE = 100;

/** Opens a postgres.js pool. Connections are made lazily, on the first query. */
export function connectPostgres(options: ConnectPostgresOptions): postgres.Sql {
  if (!Number.isInteger(options.maxPoolSize) || options.maxPoolSize < 0) {
    throw new RangeError(`maxPoolSize must be a non-negative integer, got ${options.maxPoolSize}`);
  }
  return postgres(options.url, {
    max: options.maxPoolSize === 0 ? UNLIMITED_POOL_SIZE : options.maxPoolSize,
    // Named statements live in the backend; with the embedded server all clients share one backend.
    // Unnamed statements are safe there because the multiplexer runs Parse…Sync of a client atomically.
    prepare: !options.embedded,
    onnotice: options.onNotice ?? (() => {}),
    connection: { application_name: "authsvc" },
  });
}
