import postgres from "postgres";
import { timestampFromPostgres } from "./timestamps.js";

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
  /**
   * Closes a connection idle this long (ms), so a quiet instance gives its connections back to a
   * shared server; 0 keeps idle connections open.
   */
  connMaxIdleTimeMs?: number;
  /** Closes (and later reopens) a connection this old (ms), e.g. to follow a failover; 0 never. */
  connMaxLifetimeMs?: number;
  /**
   * Longest wait (ms) for a connection to be established; postgres.js's default is 30 s, longer than a
   * request may run, so a silent host would turn every request into a timeout. Default 5 s.
   */
  connectTimeoutMs?: number;
  /** Where server notices go; by default they are dropped instead of postgres.js's console.log. */
  onNotice?: (notice: PostgresNotice) => void;
  /** The connections' `application_name`, as `pg_stat_activity` shows them. Default `authsvc`. */
  applicationName?: string;
}

/**
 * What maxPoolSize 0 becomes. Go's database/sql "unlimited" opens connections until the server
 * refuses (53300 too_many_connections) and then fails requests; a finite cap makes a burst queue in the
 * pool instead. 100 is PostgreSQL's default max_connections, so one instance alone never causes 53300
 * on a default server; operators running many instances should set an explicit size.
 */
export const UNLIMITED_POOL_SIZE = 100;

/**
 * Longest wait (s) before reconnecting after a failed connection. It bounds both the recovery (the
 * next attempt after the database answers again) and, while it refuses connections, how long a
 * statement waits for the attempt whose failure it is answered with: each statement of a request can
 * wait this long, so 0.25 s keeps a request with a few statements well under a second. The price is
 * at most 8 attempts a second per pool connection (the delay is jittered down to half of it), made
 * only while statements are waiting.
 */
const RECONNECT_DELAY_CAP_S = 0.25;

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
    idle_timeout: (options.connMaxIdleTimeMs ?? 0) / 1000,
    max_lifetime: (options.connMaxLifetimeMs ?? 0) / 1000,
    connect_timeout: (options.connectTimeoutMs ?? 5_000) / 1000,
    // postgres.js's default backoff is shared by the pool and grows by 3× per failed connection (up to
    // 20 s): after a restart that killed ten connections, queries would wait seconds before even trying.
    // A short, capped delay makes an outage a run of fast errors and the recovery near-immediate.
    backoff: (retries: number) =>
      Math.min(0.05 * 2 ** retries, RECONNECT_DELAY_CAP_S) * (0.5 + Math.random() / 2),
    connection: { application_name: options.applicationName ?? "authsvc" },
    // postgres.js's own date type, but read within the range a Date and RFC 3339 hold: its
    // `new Date(text)` makes `infinity` an Invalid Date, which no answer can show (timestamps.ts).
    types: {
      date: {
        to: 1184,
        from: [1082, 1114, 1184],
        serialize: (x: Date | string) => (x instanceof Date ? x : new Date(x)).toISOString(),
        parse: timestampFromPostgres,
      },
    },
  });
}
