import { describe, expect, it } from "vitest";
import {
  bytesPerUser,
  type Costs,
  DEFAULT_PROFILE,
  type Deployment,
  dailyPerUser,
  databaseCeiling,
  machineCores,
  type OperationCost,
  type Profile,
  peakRates,
  perVcpu,
  rowsPerUser,
  size,
} from "../bench/capacity-model.js";

/**
 * The arithmetic of the capacity model (bench/capacity-model.ts) on round inputs whose answers are worked
 * out by hand here; no timing is measured.
 */
const cost = (
  serverUs: number,
  dbUs: number,
  walBytes: number,
  rows: Record<string, number> = {},
): OperationCost => ({
  serverUs,
  dbUs,
  walBytes,
  commits: walBytes > 0 ? 1 : 0,
  rows,
});

const costs: Costs = {
  signup: cost(20_000, 1_000, 10_000, { users: 1, identities: 1, user_snapshots: 1, audit_log_entries: 1 }),
  password: cost(20_000, 500, 4_000, { sessions: 1, refresh_tokens: 1, audit_log_entries: 1 }),
  refresh: cost(500, 250, 2_000, { refresh_tokens: 1, audit_log_entries: 2 }),
  user: cost(250, 125, 0),
  client_credentials: cost(400, 100, 0),
};

// A population of 3.6 million: 1% online at the peak (36,000), each refreshing every hour (10/s) and
// reading its user 100 times an hour (1,000/s); sign-ins and sign-ups a day: 8,640 each (0.1/s on
// average, 0.2/s at the peak).
const profile: Profile = {
  dailyActiveFraction: 0.024,
  peakOnlineFraction: 0.01,
  peakToAverage: 2,
  accessTokenLifetimeS: 3600,
  passwordSignInsPerActiveUser: 0.1,
  getUserPerOnlineUserPerHour: 100,
  signUpsPerUserPerDay: 0.0024,
  clientCredentialsPerMillionUsers: 10,
  sessionLifetimeDays: 30,
  revokedTokenRetentionDays: 1,
  auditRetentionDays: 90,
  mfaFraction: 0.5,
};
const USERS = 3_600_000;
const deployment: Deployment = {
  vcpusPerInstance: 2,
  minInstances: 2,
  targetUtilization: 0.5,
  roundTripUs: 250,
  commitFlushUs: 1_000,
};

describe("the capacity model", () => {
  it("turns CPU µs per request into requests per vCPU, and an unknown cost into NaN", () => {
    expect(perVcpu(250)).toBe(4_000);
    expect(perVcpu(20_000)).toBe(50);
    expect(perVcpu(Number.NaN)).toBeNaN();
    expect(perVcpu(0)).toBeNaN();
  });

  it("derives the peak rates from the population and the profile", () => {
    const rates = peakRates(USERS, profile);
    expect(rates.refresh).toBeCloseTo(10, 9);
    expect(rates.user).toBeCloseTo(1_000, 9);
    expect(rates.password).toBeCloseTo(0.2, 9);
    expect(rates.signup).toBeCloseTo(0.2, 9);
    expect(rates.client_credentials).toBeCloseTo(36, 9);
  });

  it("sizes the servers, the database, its connections and its WAL from the rates and the costs", () => {
    const s = size(USERS, costs, profile, deployment);
    // Server: 0.2×20,000 + 0.2×20,000 + 10×500 + 1,000×250 + 36×400 = 277,400 µs/s = 0.2774 vCPU, at 50%.
    expect(s.serverVcpus).toBeCloseTo(0.5548, 9);
    expect(s.instances).toBe(2);
    // Database: 0.2×1,000 + 0.2×500 + 10×250 + 1,000×125 + 36×100 = 131,400 µs/s.
    expect(s.dbCoresBusy).toBeCloseTo(0.1314, 9);
    expect(s.dbCores).toBe(2);
    // Held: the database's CPU and a round trip per request, and a flush per commit (the three writes):
    // 131,400 + 1,046.4 requests × 250 + 10.4 commits × 1,000 = 403,400 µs/s.
    expect(s.connectionsBusy).toBeCloseTo(0.4034, 9);
    expect(s.poolSize).toBe(2);
    expect(s.walBytesPerSecond).toBeCloseTo(0.2 * 10_000 + 0.2 * 4_000 + 10 * 2_000, 6);
    expect(s.commitsPerSecond).toBeCloseTo(10.4, 9);
  });

  it("adds instances as the server's CPU grows, and caps the pool at two connections per database core", () => {
    const s = size(USERS * 100, costs, profile, deployment);
    // 27.74 vCPUs busy at 50%: 55.48, in instances of 2.
    expect(s.serverVcpus).toBeCloseTo(55.48, 6);
    expect(s.instances).toBe(28);
    // 13.14 cores busy at 50%: 26.28, the next machine 32 cores.
    expect(s.dbCores).toBe(32);
    // 40.34 connections busy at 50%: 81, over 2 × 32.
    expect(s.poolSize).toBe(64);
  });

  it("rounds database cores up to a power of two, two at the least", () => {
    expect([0, 0.3, 2, 2.1, 5, 16, 17].map(machineCores)).toEqual([2, 2, 2, 4, 8, 16, 32]);
  });

  it("counts the rows a user keeps: what each operation adds, how often, how long it stays", () => {
    const daily = dailyPerUser(profile);
    // Peak rates ÷ 2 × a day ÷ 3.6 million users.
    expect(daily.refresh).toBeCloseTo(0.12, 9);
    expect(daily.password).toBeCloseTo(0.0024, 9);
    const rows = rowsPerUser(costs, profile);
    expect(rows.users).toBe(1);
    expect(rows.mfa_factors).toBe(0.5);
    // 0.0024 sign-ins a day, each a session kept 30 days.
    expect(rows.sessions).toBeCloseTo(0.072, 9);
    // A live token per session, and a day of revoked ones (0.12 refreshes a day).
    expect(rows.refresh_tokens).toBeCloseTo(0.072 + 0.12, 9);
    // 90 days of 0.0024 sign-ups + 0.0024 sign-ins + 2 × 0.12 refreshes.
    expect(rows.audit_log_entries).toBeCloseTo(90 * (0.0024 + 0.0024 + 0.24), 9);
  });

  it("keeps no audit entries and one session per sign-in day when the retentions say so", () => {
    const rows = rowsPerUser(costs, { ...DEFAULT_PROFILE, auditRetentionDays: 0, sessionLifetimeDays: 1 });
    expect(rows.audit_log_entries).toBe(0);
    expect(rows.sessions).toBeCloseTo(dailyPerUser(DEFAULT_PROFILE).password, 9);
  });

  it("multiplies rows by bytes per row, table by table", () => {
    const bytes = bytesPerUser({ users: 1, sessions: 0.5, unknown: 3 }, { users: 1_000, sessions: 400 });
    expect(bytes.byTable).toEqual({ users: 1_000, sessions: 200, unknown: 0 });
    expect(bytes.total).toBe(1_200);
  });

  it("finds the refresh rate where one database's CPU runs out, with its WAL and commits", () => {
    const ceiling = databaseCeiling(costs.refresh, 16, 0.5);
    expect(ceiling.rate).toBe(32_000);
    expect(ceiling.walBytesPerSecond).toBe(64_000_000);
    expect(ceiling.commitsPerSecond).toBe(32_000);
  });
});
