/**
 * `npx tsx bench/bulk-load.ts [--users=40000]`: users per second of a bulk load of users with their
 * email identities into the migrated schema, written in one transaction, three ways: with the user
 * snapshots' row triggers (one deferred call per row at commit), with `user_snapshots_flush()` at the
 * end (set-wise), and with the triggers off (`session_replication_role = replica`, a superuser's: no
 * snapshot at all, the floor). Each on a fresh database on the PostgreSQL at 127.0.0.1:5432 (or
 * BENCH_DATABASE_URL's server), migrated by the built server (`npm run build` first).
 */
import { execFileSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import postgres from "postgres";

const root = fileURLToPath(new URL("..", import.meta.url));
const args = new Map(process.argv.slice(2).map((a) => a.replace(/^--/, "").split("=") as [string, string]));
const USERS = Number(args.get("users") ?? 40_000);
const server = new URL(process.env.BENCH_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres");

type Way = "row triggers" | "user_snapshots_flush()" | "triggers off";

async function load(
  way: Way,
): Promise<{ way: Way; seconds: number; usersPerSecond: number; snapshots: number }> {
  const admin = postgres(server.href, { max: 1, onnotice: () => {} });
  const name = `authsvc_bulk_${Date.now()}`;
  await admin.unsafe(`create database ${name}`);
  const url = new URL(server.href);
  url.pathname = `/${name}`;
  try {
    execFileSync(process.execPath, ["apps/http/dist/main.js", "migrate"], {
      cwd: root,
      env: {
        PATH: process.env.PATH ?? "",
        DATABASE_URL: url.href,
        AUTHSVC_LOG_LEVEL: "warn",
        AUTHSVC_SITE_URL: "http://localhost:3000",
        AUTHSVC_API_EXTERNAL_URL: "http://localhost:9999",
        AUTHSVC_JWT_SECRET: "a-benchmark-secret-of-at-least-32-characters",
      },
      stdio: ["ignore", "ignore", "inherit"],
    });
    const sql = postgres(url.href, { max: 1, onnotice: () => {} });
    try {
      const began = performance.now();
      await sql.begin(async (tx) => {
        if (way === "triggers off") await tx`set local session_replication_role = replica`;
        await tx`
          insert into auth.users (id, aud, role, email, created_at, updated_at)
          select gen_random_uuid(), 'authenticated', 'authenticated', 'bulk-' || g || '@example.com', now(), now()
          from generate_series(1, ${USERS}) g`;
        await tx`
          insert into auth.identities (provider_id, user_id, identity_data, provider)
          select id::text, id, jsonb_build_object('sub', id, 'email', email), 'email' from auth.users`;
        if (way === "user_snapshots_flush()") await tx`select auth.user_snapshots_flush()`;
      });
      const seconds = (performance.now() - began) / 1000;
      const [row] = await sql`select count(*)::int as n from auth.user_snapshots`;
      return { way, seconds, usersPerSecond: USERS / seconds, snapshots: row?.n as number };
    } finally {
      await sql.end();
    }
  } finally {
    await admin.unsafe(`drop database ${name} with (force)`);
    await admin.end();
  }
}

const results = [];
for (const way of ["row triggers", "user_snapshots_flush()", "triggers off"] as const) {
  const r = await load(way);
  process.stderr.write(
    `${way}: ${r.seconds.toFixed(2)} s, ${r.usersPerSecond.toFixed(0)} users/s, ${r.snapshots} snapshots\n`,
  );
  results.push(r);
}
console.log(`\nbulk load of ${USERS} users with an email identity each, one transaction\n`);
console.log("| way | seconds | users/s | snapshots written |");
console.log("| --- | ---: | ---: | ---: |");
for (const r of results)
  console.log(`| ${r.way} | ${r.seconds.toFixed(2)} | ${r.usersPerSecond.toFixed(0)} | ${r.snapshots} |`);
