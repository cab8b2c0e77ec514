/**
 * `npx tsx --tsconfig tsconfig.check.json bench/import-gotrue.ts [--users=100000] [--batch-size=1000]`:
 * the speed of `authsvc import-gotrue`. Builds a GoTrue database with the reference's migrations
 * (test/fixtures/gotrue-migrations) holding `--users` confirmed users, each with an email identity,
 * a session and a refresh token; imports it into an empty authsvc database with the built command
 * (`npm run build` first); imports it again (the run that must change nothing); prints both runs'
 * summaries, wall times and rows per second. docs/import-gotrue.md reports the figures.
 *
 * Database: BENCH_DATABASE_URL (a server where databases can be created), else
 * postgres://postgres@127.0.0.1:5432/postgres. Two fresh databases are made and dropped at the end.
 */
import { spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { connectPostgres } from "@authsvc/adapters";
import { hashSync } from "bcryptjs";
import { createGotrueSchema, fillGotrueBulk } from "../test/support/gotrue-source.js";

const option = (name: string, fallback: string) =>
  process.argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3) ?? fallback;
const users = Number(option("users", "100000"));
const batchSize = option("batch-size", "1000");
const server = new URL(process.env.BENCH_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres");
const suffix = randomBytes(4).toString("hex");
const urlOf = (db: string) => Object.assign(new URL(server), { pathname: `/${db}` }).toString();
const sourceDb = `bench_gotrue_${suffix}`;
const targetDb = `bench_authsvc_${suffix}`;

const admin = connectPostgres({ url: server.toString(), maxPoolSize: 1 });
await admin.unsafe(`create database ${sourceDb}`);
await admin.unsafe(`create database ${targetDb}`);
try {
  const source = connectPostgres({ url: urlOf(sourceDb), maxPoolSize: 1 });
  const filling = performance.now();
  await createGotrueSchema(source, "auth");
  // GoTrue's bcrypt cost (Go's DefaultCost); one hash for all: the import never computes one.
  await fillGotrueBulk(source, "auth", users, hashSync("bench password", 10));
  await source.end();
  console.log(`source: ${users} users filled in ${((performance.now() - filling) / 1000).toFixed(1)} s`);
  for (const run of ["first", "second"]) {
    const started = performance.now();
    const result = spawnSync(
      process.execPath,
      ["apps/http/dist/main.js", "import-gotrue", "--from", urlOf(sourceDb), "--batch-size", batchSize],
      {
        encoding: "utf8",
        env: {
          ...process.env,
          DATABASE_URL: urlOf(targetDb),
          AUTHSVC_JWT_SECRET: "bench-secret-bench-secret-bench-secret-0",
          AUTHSVC_SITE_URL: "http://localhost:3000",
          AUTHSVC_API_EXTERNAL_URL: "http://localhost:9999",
        },
      },
    );
    const seconds = (performance.now() - started) / 1000;
    if (result.status !== 0) throw new Error(`import failed (${result.status}): ${result.stderr}`);
    const rows = users * 4;
    console.log(
      `\n${run} run: ${seconds.toFixed(1)} s wall, ${Math.round(rows / seconds)} rows/s, ${Math.round(users / seconds)} users/s`,
    );
    console.log(result.stdout);
  }
} finally {
  await admin.unsafe(`drop database if exists ${sourceDb} with (force)`);
  await admin.unsafe(`drop database if exists ${targetDb} with (force)`);
  await admin.end();
}
