import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { type FreshNamespace, migratedNamespace, startSmtpSink } from "@authsvc/adapters/testing";
import { productionServerEnv, roleKey } from "@authsvc/http/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ServerProcess, startServer } from "./support/server-process.js";

/**
 * A caller must not tell a known address from an unknown one (nor, on sign-up, a taken one from a
 * new one) by the time the answer takes: the medians of n requests each must be within 10%. The mail
 * server is slow (each message held 200 ms), so any mail sent before the answer would show.
 */
const N = 40;
let ns: FreshNamespace;
let sink: Awaited<ReturnType<typeof startSmtpSink>>;
let server: ServerProcess;
const cwd = mkdtempSync(join(tmpdir(), "authsvc-timing-"));
let run = 0;
const address = (tag: string, i: number) => `${tag}-${run}-${i}@example.com`;

beforeAll(async () => {
  run = Date.now();
  ns = await migratedNamespace();
  sink = await startSmtpSink({ delayMs: 200 });
  server = await startServer(
    productionServerEnv(ns, {
      AUTHSVC_SMTP_HOST: sink.host,
      AUTHSVC_SMTP_PORT: String(sink.port),
      AUTHSVC_SMTP_ADMIN_EMAIL: "auth@example.com",
      // Few connections: the test database is shared with every other test file of the run.
      AUTHSVC_DB_MAX_POOL_SIZE: "5",
      AUTHSVC_RATE_LIMIT_EMAIL_SENT: "100000",
      // A resend right after the sign-up must send (not 429), so no gap between confirmations.
      AUTHSVC_SMTP_MAX_FREQUENCY: "0",
    }),
    { cwd },
  );
}, 60_000);

afterAll(async () => {
  await server?.stop();
  await sink?.close();
  await ns?.drop();
  rmSync(cwd, { recursive: true, force: true });
});

async function post(path: string, body: unknown, headers: Record<string, string> = {}) {
  const started = performance.now();
  const res = await fetch(`${server.url}${path}`, {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: JSON.stringify(body),
  });
  await res.arrayBuffer();
  return { status: res.status, ms: performance.now() - started };
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2
    ? (sorted[mid] as number)
    : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
};

/**
 * Times `known(i)` and `unknown(i)` alternately, N of each, after a few warm-up rounds; every
 * answer must be 200. Resolves both medians in ms.
 */
async function compare(
  send: (kind: "known" | "unknown", i: number) => Promise<{ status: number; ms: number }>,
) {
  const times = { known: [] as number[], unknown: [] as number[] };
  for (let i = 0; i < N + 5; i++) {
    const order = i % 2 === 0 ? (["known", "unknown"] as const) : (["unknown", "known"] as const);
    for (const kind of order) {
      const { status, ms } = await send(kind, i);
      expect(status, `${kind} #${i}`).toBe(200);
      if (i >= 5) times[kind].push(ms);
    }
  }
  return { known: median(times.known), unknown: median(times.unknown) };
}

/** Medians within 10% of each other. */
function expectAlike(label: string, medians: { known: number; unknown: number }) {
  const { known, unknown } = medians;
  const gap = Math.abs(known - unknown) / Math.max(known, unknown);
  console.info(
    `${label}: known ${known.toFixed(2)} ms, unknown ${unknown.toFixed(2)} ms (${(gap * 100).toFixed(1)}%)`,
  );
  expect(
    gap,
    `${label}: known ${known.toFixed(2)} ms vs unknown ${unknown.toFixed(2)} ms`,
  ).toBeLessThanOrEqual(0.1);
}

/** Confirmed users `tag`-0… (through the admin API, which hashes their passwords: in parallel). */
async function confirmedUsers(tag: string) {
  const key = await roleKey("service_role");
  const created = await Promise.all(
    Array.from({ length: N + 5 }, (_, i) =>
      post(
        "/admin/users",
        { email: address(tag, i), password: "secret-pw", email_confirm: true },
        { authorization: `Bearer ${key}` },
      ),
    ),
  );
  expect(created.map((r) => r.status)).toEqual(created.map(() => 200));
}

/** Users `tag`-0… without a password, created (unconfirmed) by asking for a code, in parallel. */
async function passwordlessUsers(tag: string) {
  const created = await Promise.all(
    Array.from({ length: N + 5 }, (_, i) => post("/otp", { email: address(tag, i) })),
  );
  expect(created.map((r) => r.status)).toEqual(created.map(() => 200));
}

describe("no enumeration by timing", () => {
  it("/recover: a known address answers in the time of an unknown one", async () => {
    await passwordlessUsers("recover");
    const medians = await compare((kind, i) =>
      post("/recover", { email: kind === "known" ? address("recover", i) : address("nobody-r", i) }),
    );
    expectAlike("/recover", medians);
  }, 60_000);

  it("/magiclink and /otp: a known address answers in the time of an unknown one", async () => {
    await passwordlessUsers("magic");
    const magic = await compare((kind, i) =>
      post("/magiclink", { email: kind === "known" ? address("magic", i) : address("nobody-m", i) }),
    );
    expectAlike("/magiclink", magic);
    await passwordlessUsers("otp");
    const otp = await compare((kind, i) =>
      post("/otp", { email: kind === "known" ? address("otp", i) : address("nobody-o", i) }),
    );
    expectAlike("/otp", otp);
  }, 60_000);

  it("/signup: a taken address answers in the time of a new one", async () => {
    await confirmedUsers("taken");
    const medians = await compare((kind, i) =>
      post("/signup", {
        email: kind === "known" ? address("taken", i) : address("new", i),
        password: "secret-pw",
      }),
    );
    expectAlike("/signup", medians);
  }, 60_000);

  it("/signup: an address signed up but never confirmed answers in the time of a new one", async () => {
    // Unconfirmed sign-ups holding a password: a sign-up with another one checks it instead of hashing.
    const created = await Promise.all(
      Array.from({ length: N + 5 }, (_, i) =>
        post("/signup", { email: address("unconfirmed", i), password: "first-pw" }),
      ),
    );
    expect(created.map((r) => r.status)).toEqual(created.map(() => 200));
    const medians = await compare((kind, i) =>
      post("/signup", {
        email: kind === "known" ? address("unconfirmed", i) : address("new-u", i),
        password: "second-pw",
      }),
    );
    expectAlike("/signup (unconfirmed)", medians);
  }, 60_000);

  it("/resend: an unconfirmed address answers in the time of an unknown one", async () => {
    await passwordlessUsers("pending");
    const medians = await compare((kind, i) =>
      post("/resend", {
        type: "signup",
        email: kind === "known" ? address("pending", i) : address("nobody-s", i),
      }),
    );
    expectAlike("/resend", medians);
  }, 60_000);
});
