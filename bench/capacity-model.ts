/**
 * The arithmetic of the capacity model (docs/capacity.md): from measured costs per operation (CPU µs
 * of the server and of the database, WAL bytes, rows added per table) and bytes per row, the
 * requests each vCPU serves, the peak rates a population makes under a stated profile, and the
 * instances, database cores, connections, WAL volume and storage those rates need. Pure: no I/O.
 */

/** The operations measured by the bench's `capacity` extra. */
export const OPERATIONS = ["signup", "password", "refresh", "user", "client_credentials"] as const;
export type Operation = (typeof OPERATIONS)[number];

/** What one operation costs, measured. */
export interface OperationCost {
  /** CPU time of the server process per request (µs). */
  serverUs: number;
  /** CPU time of the PostgreSQL backends serving it per request (µs). */
  dbUs: number;
  /** WAL bytes written per request (records of the service's database and their commits). */
  walBytes: number;
  /** Commit records per request: transactions that wrote, each a WAL flush. */
  commits: number;
  /** Net rows added per request, by table (negative: removed). */
  rows: Record<string, number>;
}

export type Costs = Record<Operation, OperationCost>;

/** Requests per second one vCPU serves at a CPU cost of `cpuUs` per request (NaN when unknown). */
export const perVcpu = (cpuUs: number): number => (cpuUs > 0 ? 1e6 / cpuUs : Number.NaN);

/** Who the users are and how they behave at the busiest hour. Every figure is an assumption. */
export interface Profile {
  /** Share of all users active on a day. */
  dailyActiveFraction: number;
  /** Share of all users with an app open at the busiest moment (their access tokens refresh). */
  peakOnlineFraction: number;
  /** The busiest hour's rate ÷ the day's average rate. */
  peakToAverage: number;
  /** `AUTHSVC_JWT_EXP`: an open app refreshes once per lifetime. */
  accessTokenLifetimeS: number;
  /** Password sign-ins per daily-active user per day (most stay signed in through refreshes). */
  passwordSignInsPerActiveUser: number;
  /** GET /user per online user per hour (an app checking its user on start and focus). */
  getUserPerOnlineUserPerHour: number;
  /** New users per day, as a share of all users. */
  signUpsPerUserPerDay: number;
  /** Machine-client tokens per second per million users (client_credentials; cached for their lifetime). */
  clientCredentialsPerMillionUsers: number;
  /** Days a session lives once started (`SESSIONS_INACTIVITY_TIMEOUT` or a sign-out; unbounded by default). */
  sessionLifetimeDays: number;
  /** `CLEANUP_REVOKED_TOKEN_RETENTION` in days. */
  revokedTokenRetentionDays: number;
  /** `AUDIT_LOG_RETENTION` in days (0 keeps them forever: then this many days are counted). */
  auditRetentionDays: number;
  /** Share of users with a second factor. */
  mfaFraction: number;
}

export const DEFAULT_PROFILE: Profile = {
  dailyActiveFraction: 0.2,
  peakOnlineFraction: 0.05,
  peakToAverage: 3,
  accessTokenLifetimeS: 3600,
  passwordSignInsPerActiveUser: 0.1,
  getUserPerOnlineUserPerHour: 12,
  signUpsPerUserPerDay: 0.001,
  clientCredentialsPerMillionUsers: 5,
  sessionLifetimeDays: 30,
  revokedTokenRetentionDays: 1,
  auditRetentionDays: 90,
  mfaFraction: 0.1,
};

const DAY_S = 86_400;

/** Requests per second of each operation at the busiest hour, for `users` users. */
export function peakRates(users: number, profile: Profile): Record<Operation, number> {
  const online = users * profile.peakOnlineFraction;
  const daily = (perUserPerDay: number) => ((users * perUserPerDay) / DAY_S) * profile.peakToAverage;
  return {
    signup: daily(profile.signUpsPerUserPerDay),
    password: daily(profile.dailyActiveFraction * profile.passwordSignInsPerActiveUser),
    refresh: online / profile.accessTokenLifetimeS,
    user: (online * profile.getUserPerOnlineUserPerHour) / 3600,
    client_credentials: (users / 1e6) * profile.clientCredentialsPerMillionUsers,
  };
}

/** How the service and its database are run: the headroom kept and the shapes bought. */
export interface Deployment {
  /** vCPUs of one server instance. */
  vcpusPerInstance: number;
  /** At least this many instances (one may fail or be replaced). */
  minInstances: number;
  /** Share of a CPU planned busy at the peak (the rest absorbs bursts and GC). */
  targetUtilization: number;
  /** Time a database connection is held per request beyond the database's CPU (µs): the round trip. */
  roundTripUs: number;
  /** Time a commit waits for its WAL flush (µs). */
  commitFlushUs: number;
}

export const DEFAULT_DEPLOYMENT: Deployment = {
  vcpusPerInstance: 2,
  minInstances: 2,
  targetUtilization: 0.6,
  roundTripUs: 200,
  commitFlushUs: 1000,
};

/** The next power of two at or above `n` (database machines come in such sizes), at least 2. */
export const machineCores = (n: number): number => Math.max(2, 2 ** Math.ceil(Math.log2(Math.max(1, n))));

const sum = (values: number[]) => values.reduce((s, v) => s + v, 0);

export interface Sizing {
  rates: Record<Operation, number>;
  serverVcpus: number;
  instances: number;
  dbCoresBusy: number;
  dbCores: number;
  /** Connections busy at the peak by Little's law (rate × time held). */
  connectionsBusy: number;
  /** PgBouncer's server pool: the busy connections ÷ the target utilization, at most 2 per database core. */
  poolSize: number;
  walBytesPerSecond: number;
  /** Transactions that write (and flush the WAL at commit) per second. */
  commitsPerSecond: number;
}

/** What `users` users need at the busiest hour of `profile`, from measured `costs`. */
export function size(
  users: number,
  costs: Costs,
  profile: Profile = DEFAULT_PROFILE,
  deployment: Deployment = DEFAULT_DEPLOYMENT,
): Sizing {
  const rates = peakRates(users, profile);
  const over = (f: (op: Operation) => number) => sum(OPERATIONS.map((op) => rates[op] * f(op)));
  const serverVcpus = over((op) => costs[op].serverUs) / 1e6 / deployment.targetUtilization;
  const dbCoresBusy = over((op) => costs[op].dbUs) / 1e6;
  const dbCores = machineCores(dbCoresBusy / deployment.targetUtilization);
  const held = (op: Operation) =>
    costs[op].dbUs + deployment.roundTripUs + costs[op].commits * deployment.commitFlushUs;
  const connectionsBusy = over(held) / 1e6;
  return {
    rates,
    serverVcpus,
    instances: Math.max(deployment.minInstances, Math.ceil(serverVcpus / deployment.vcpusPerInstance)),
    dbCoresBusy,
    dbCores,
    connectionsBusy,
    poolSize: Math.min(2 * dbCores, Math.max(2, Math.ceil(connectionsBusy / deployment.targetUtilization))),
    walBytesPerSecond: over((op) => costs[op].walBytes),
    commitsPerSecond: over((op) => costs[op].commits),
  };
}

/** Operations per user per day on average (the busiest hour's rate ÷ peakToAverage). */
export function dailyPerUser(profile: Profile): Record<Operation, number> {
  const rates = peakRates(1e6, profile);
  const perDay = (op: Operation) => (rates[op] / profile.peakToAverage / 1e6) * DAY_S;
  return Object.fromEntries(OPERATIONS.map((op) => [op, perDay(op)])) as Record<Operation, number>;
}

/**
 * Rows per user of each table in the steady state of `profile`: what each operation adds (measured)
 * times how often a user does it times how long the rows stay. Tables of the user itself (users,
 * identities, snapshots) count what a sign-up adds; sessions live `sessionLifetimeDays`; a session
 * keeps one live refresh token and the revoked ones of `revokedTokenRetentionDays`; audit entries
 * stay `auditRetentionDays`; MFA factors are `mfaFraction` per user.
 */
export function rowsPerUser(costs: Costs, profile: Profile): Record<string, number> {
  const daily = dailyPerUser(profile);
  const added = (table: string, ops: readonly Operation[]) =>
    sum(ops.map((op) => daily[op] * Math.max(0, costs[op].rows[table] ?? 0)));
  const signUp = costs.signup.rows;
  const sessions = added("sessions", ["password"]) * profile.sessionLifetimeDays;
  const rows: Record<string, number> = {
    users: signUp.users ?? 1,
    identities: signUp.identities ?? 1,
    user_snapshots: signUp.user_snapshots ?? 1,
    mfa_factors: profile.mfaFraction,
    sessions,
    // One live token per session, and every rotation's revoked one for the retention.
    refresh_tokens: sessions + added("refresh_tokens", ["refresh"]) * profile.revokedTokenRetentionDays,
    audit_log_entries: added("audit_log_entries", OPERATIONS) * profile.auditRetentionDays,
  };
  return rows;
}

/** Bytes of storage per user (tables with their indexes and TOAST), by table and in total. */
export function bytesPerUser(
  rows: Record<string, number>,
  bytesPerRow: Record<string, number>,
): { byTable: Record<string, number>; total: number } {
  const byTable = Object.fromEntries(
    Object.entries(rows).map(([table, n]) => [table, n * (bytesPerRow[table] ?? 0)]),
  );
  return { byTable, total: sum(Object.values(byTable)) };
}

/**
 * Where one PostgreSQL of `cores` cores runs out serving only `cost` (e.g. refreshes): the rate its
 * CPU allows at `utilization`, and the WAL and commits per second at that rate.
 */
export function databaseCeiling(cost: OperationCost, cores: number, utilization: number) {
  const rate = (cores * utilization * 1e6) / cost.dbUs;
  return { rate, walBytesPerSecond: rate * cost.walBytes, commitsPerSecond: rate * cost.commits };
}
