/**
 * The `capacity` extra of `npm run bench`: for sign-up, the password grant, the refresh grant, GET
 * /user and the client_credentials grant, a fixed number of requests each (AMOUNT) over 16
 * connections on the authsvc server, measuring per answered request the server's CPU, its PostgreSQL backends' CPU, the
 * WAL written to its database (bench/capacity-readings.ts) and the rows it added to each table; then
 * the rows and bytes of each table; and from these the requests per vCPU and the capacity model's
 * sizes (bench/capacity-model.ts).
 */
import autocannon from "autocannon";
import { SignJWT } from "jose";
import postgres from "postgres";
import {
  bytesPerUser,
  type Costs,
  DEFAULT_PROFILE,
  OPERATIONS,
  type Operation,
  type OperationCost,
  perVcpu,
  rowsPerUser,
  size,
} from "./capacity-model.js";
import { rowCounts, type TableSize, tableSizes, type WalReading, walMeter } from "./capacity-readings.js";
import { json, PASSWORD } from "./options.js";
import { backendPids, cpuMicros, log, type Server } from "./processes.js";
import { post, refreshLoad } from "./scenarios.js";

const CONNECTIONS = 16;
const NAMESPACE = "auth";

interface Context {
  server: Server;
  databaseUrl: string;
  secret: string;
  /** The bench user's access token. */
  token: string;
  /** The bench user's address. */
  email: string;
  /** Access tokens of users the sign-up load made (at most FACTORS), who then enrol a factor. */
  signedUp: string[];
}

/** Users who enrol TOTP factors. */
const FACTORS = 64;

/**
 * TOTP factors (unverified: the same row as verified) for `tokens`' users, three each: rows enough
 * to weigh a factor.
 */
async function enrolFactors(url: string, tokens: string[]): Promise<void> {
  for (const [i, token] of tokens.flatMap((t) => [t, t, t]).entries()) {
    const res = await fetch(`${url}/factors`, {
      method: "POST",
      headers: { ...json, authorization: `Bearer ${token}` },
      body: JSON.stringify({ factor_type: "totp", issuer: "capacity", friendly_name: `capacity ${i}` }),
    });
    if (res.status !== 200) throw new Error(`POST /factors: ${res.status} ${await res.text()}`);
  }
}

/** The load of each operation, prepared (tokens seeded, a client made) before its measurement starts. */
async function loads(ctx: Context): Promise<Record<Operation, () => Promise<autocannon.Options>>> {
  const url = ctx.server.url;
  const signIn = async () =>
    (await post(`${url}/token?grant_type=password`, { email: ctx.email, password: PASSWORD }))
      .refresh_token as string;
  const refreshes = refreshLoad(signIn);
  let n = 0;
  return {
    signup: async () => ({
      url: `${url}/signup`,
      requests: [
        {
          method: "POST",
          headers: json,
          setupRequest: (req) => ({
            ...req,
            body: JSON.stringify({ email: `capacity-${Date.now()}-${++n}@example.com`, password: PASSWORD }),
          }),
          onResponse: (status, body) => {
            if (status === 200 && ctx.signedUp.length < FACTORS)
              ctx.signedUp.push((JSON.parse(body) as { access_token: string }).access_token);
          },
        },
      ],
    }),
    password: async () => ({
      url: `${url}/token?grant_type=password`,
      method: "POST",
      headers: json,
      body: JSON.stringify({ email: ctx.email, password: PASSWORD }),
    }),
    // Each in-flight request takes a live token of its own session and puts the answer's back.
    refresh: () => refreshes(`${url}/token?grant_type=refresh_token`, CONNECTIONS),
    user: async () => ({ url: `${url}/user`, headers: { authorization: `Bearer ${ctx.token}` } }),
    client_credentials: async () => {
      const { id, secret } = await machineClient(url, ctx.secret);
      return {
        url: `${url}/oauth/token`,
        method: "POST",
        headers: {
          "content-type": "application/x-www-form-urlencoded",
          authorization: `Basic ${Buffer.from(`${encodeURIComponent(id)}:${encodeURIComponent(secret)}`).toString("base64")}`,
        },
        body: "grant_type=client_credentials",
      };
    },
  };
}

/** A confidential OAuth client with the client_credentials grant, made through the admin API. */
async function machineClient(url: string, jwtSecret: string): Promise<{ id: string; secret: string }> {
  const key = await new SignJWT({ role: "service_role" })
    .setProtectedHeader({ alg: "HS256" })
    .setIssuedAt()
    .setExpirationTime("1h")
    .sign(new TextEncoder().encode(jwtSecret));
  const res = await fetch(`${url}/admin/oauth/clients`, {
    method: "POST",
    headers: { ...json, authorization: `Bearer ${key}` },
    body: JSON.stringify({
      client_name: "capacity",
      redirect_uris: ["https://machine.example/cb"],
      grant_types: ["client_credentials"],
    }),
  });
  if (res.status !== 201) throw new Error(`POST /admin/oauth/clients: ${res.status} ${await res.text()}`);
  const body = (await res.json()) as { client_id: string; client_secret: string };
  return { id: body.client_id, secret: body.client_secret };
}

export interface Measurement extends OperationCost {
  operation: Operation;
  answered: number;
  errors: number;
  wal: WalReading;
}

/** Requests of each operation measured: every one answered before the readings are taken. */
const AMOUNT: Record<Operation, number> = {
  signup: 160,
  password: 160,
  refresh: 1_000,
  user: 2_000,
  client_credentials: 2_000,
};

/** `amount` requests of `operation` over 16 connections: CPU, WAL and rows per answered request. */
async function measureOperation(
  ctx: Context,
  sql: postgres.Sql,
  operation: Operation,
  options: autocannon.Options,
): Promise<Measurement> {
  const meter = await walMeter(sql);
  const backends = backendPids("authsvc");
  const dbCpu = () => backends.reduce((s, p) => s + (cpuMicros(p) || 0), 0);
  const rowsBefore = await rowCounts(sql, NAMESPACE);
  const from = await meter.mark();
  const cpu0 = cpuMicros(ctx.server.pid);
  const db0 = dbCpu();
  const result = await autocannon({ ...options, connections: CONNECTIONS, amount: AMOUNT[operation] });
  const serverUs = cpuMicros(ctx.server.pid) - cpu0;
  const dbUs = dbCpu() - db0;
  const wal = await meter.since(from);
  const rowsAfter = await rowCounts(sql, NAMESPACE);
  const answered = result["2xx"];
  const rows: Record<string, number> = {};
  for (const [table, after] of Object.entries(rowsAfter)) {
    const added = after - (rowsBefore[table] ?? 0);
    if (added !== 0) rows[table] = added / answered;
  }
  log(
    `capacity ${operation}: ${answered} answered, ${(serverUs / answered).toFixed(0)} + ${(dbUs / answered).toFixed(0)} µs, ${(wal.bytes / answered).toFixed(0)} WAL bytes each`,
  );
  return {
    operation,
    answered,
    errors: result.non2xx + result.errors + result.timeouts,
    serverUs: serverUs / answered,
    dbUs: backends.length ? dbUs / answered : Number.NaN,
    walBytes: wal.bytes / answered,
    commits: wal.commits / answered,
    rows,
    wal,
  };
}

export interface CapacityResult {
  measured: Measurement[];
  tables: (TableSize & { bytesPerRow: number })[];
  perVcpu: { operation: Operation; server: number; database: number }[];
  rowsPerUser: Record<string, number>;
  bytesPerUser: { byTable: Record<string, number>; total: number };
  sizes: ({ users: number } & ReturnType<typeof size>)[];
}

export async function capacity(ctx: Omit<Context, "signedUp">): Promise<CapacityResult> {
  const sql = postgres(ctx.databaseUrl, { max: 1, onnotice: () => {} });
  const context: Context = { ...ctx, signedUp: [] };
  const began = new Date();
  try {
    const prepared = await loads(context);
    const measured: Measurement[] = [];
    for (const operation of OPERATIONS) {
      // A second's warm-up first (pool connections opened, code compiled), outside the measurement;
      // the load is prepared again after it (refresh tokens lost mid-request replaced).
      await autocannon({
        ...(await prepared[operation]()),
        connections: CONNECTIONS,
        amount: 2 * CONNECTIONS,
      });
      measured.push(await measureOperation(context, sql, operation, await prepared[operation]()));
    }
    await enrolFactors(ctx.server.url, context.signedUp);
    const costs = Object.fromEntries(measured.map((m) => [m.operation, m])) as unknown as Costs;
    const tables = (await tableSizes(sql, NAMESPACE, began))
      .filter((t) => t.rows > 0)
      // A row as the service writes it: the heap's share scaled by the written rows' size.
      .map((t) => ({ ...t, bytesPerRow: (t.totalBytes + t.heapBytes * (t.freshRowRatio - 1)) / t.rows }));
    const bytesPerRow = Object.fromEntries(tables.map((t) => [t.table, t.bytesPerRow]));
    const rows = rowsPerUser(costs, DEFAULT_PROFILE);
    return {
      measured,
      tables,
      perVcpu: measured.map((m) => ({
        operation: m.operation,
        server: perVcpu(m.serverUs),
        database: perVcpu(m.dbUs),
      })),
      rowsPerUser: rows,
      bytesPerUser: bytesPerUser(rows, bytesPerRow),
      sizes: [1e6, 1e7, 1e8].map((users) => ({ users, ...size(users, costs) })),
    };
  } finally {
    await sql.end();
  }
}
