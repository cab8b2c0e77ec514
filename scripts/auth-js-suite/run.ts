/**
 * Runs the official auth-js test suite, unchanged, against authsvc (docs/compatibility.md).
 *
 *   npm run suite:auth-js -- <auth-js checkout> [jest arguments…]
 *
 * The checkout (argument, or AUTH_JS_SUITE_DIR) needs `npm install` at its root and in `test/`.
 * Starts an SMTP sink on 2500, a loopback Twilio, and one authsvc per GoTrue service of the checkout's
 * infra/docker-compose.yml on its port, all on one fresh database of the Postgres server at
 * AUTH_JS_SUITE_DATABASE_URL; runs jest; stops everything; prints passed/failed/total and each failing
 * test. AUTH_JS_SUITE_REPORT=<file> also writes every test's outcome there as JSON.
 */
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { startSmtpSink, startTwilioFake } from "@authsvc/adapters/testing";
import { suiteServers } from "./compose.js";
import { freshDatabase } from "./database.js";
import { runSuite, type SuiteResult } from "./jest.js";
import { type Running, SERVER_ENTRY, startSuiteServer } from "./processes.js";

const SMTP_PORT = 2500;
const log = (line: string) => process.stderr.write(`${line}\n`);

function fail(message: string): never {
  log(`suite:auth-js: ${message}`);
  process.exit(2);
}

function summary(result: SuiteResult): string {
  const count = (status: string) => result.outcomes.filter((o) => o.status === status).length;
  const failed = result.outcomes.filter((o) => o.status === "failed");
  const lines = [
    `auth-js suite: ${count("passed")} passed, ${failed.length} failed, ${count("pending") + count("skipped") + count("todo")} skipped, ${result.outcomes.length} total (${result.seconds.toFixed(0)} s)`,
  ];
  for (const broken of result.brokenFiles) lines.push(`  file not run: ${broken.file}\n${broken.message}`);
  for (const test of failed) lines.push(`  FAIL ${test.file} › ${test.name}`);
  return lines.join("\n");
}

async function main() {
  const [first, ...jestArgs] = process.argv.slice(2);
  const checkout = resolve(
    first ?? process.env.AUTH_JS_SUITE_DIR ?? fail("give the path of an auth-js checkout"),
  );
  for (const needed of ["infra/docker-compose.yml", "test/jest.config.js"]) {
    if (!existsSync(join(checkout, needed))) fail(`${checkout} is not an auth-js checkout: no ${needed}`);
  }
  for (const needed of ["node_modules/typescript", "test/node_modules/jest/bin/jest.js"]) {
    if (!existsSync(join(checkout, needed))) {
      fail(`${join(checkout, needed)} is missing: run \`npm install\` at the checkout's root and in test/`);
    }
  }
  if (!existsSync(SERVER_ENTRY)) fail(`${SERVER_ENTRY} is missing: run \`npm run build\``);
  const adminUrl =
    process.env.AUTH_JS_SUITE_DATABASE_URL ?? fail("set AUTH_JS_SUITE_DATABASE_URL (a Postgres URL)");

  // Ctrl-C stops jest and the servers and still drops the run's database.
  const interrupt = new AbortController();
  for (const signal of ["SIGINT", "SIGTERM"] as const) {
    process.once(signal, () => {
      log(`suite:auth-js: ${signal}, stopping`);
      interrupt.abort();
    });
  }
  const runDir = mkdtempSync(join(tmpdir(), "authsvc-auth-js-suite-"));
  const cleanups: (() => Promise<unknown>)[] = [];
  const running: Running[] = [];
  try {
    const database = await freshDatabase(adminUrl);
    cleanups.push(() => database.drop());
    // The compose file's SMTP credentials, required as inbucket would take them.
    const smtp = await startSmtpSink({
      port: SMTP_PORT,
      auth: { user: "GOTRUE_SMTP_USER", pass: "GOTRUE_SMTP_PASS" },
    });
    cleanups.push(() => smtp.close());
    // A Twilio that knows other credentials than the servers': every text fails, as in the suite's CI.
    const twilio = await startTwilioFake({
      accountSid: "AC-accepted",
      authToken: "accepted",
      sender: "+15550000000",
    });
    cleanups.push(() => twilio.close());
    const servers = suiteServers(checkout, {
      databaseUrl: database.url,
      smtpPort: SMTP_PORT,
      twilioUrl: twilio.url,
    });

    // The first server migrates the database alone; the others then start together.
    const [head, ...rest] = servers;
    if (head) running.push(await startSuiteServer(head, runDir));
    running.push(...(await Promise.all(rest.map((server) => startSuiteServer(server, runDir)))));
    for (const server of running) {
      log(`${server.server.name}: http://localhost:${server.server.port} (log ${server.logFile})`);
      for (const warning of server.warnings()) log(`  warning: ${warning}`);
    }

    const reportFile = join(runDir, "jest-report.json");
    const result = await runSuite(checkout, reportFile, jestArgs, interrupt.signal);
    const out = process.env.AUTH_JS_SUITE_REPORT;
    if (out) writeFileSync(out, `${JSON.stringify(result, null, 2)}\n`);
    process.stdout.write(`${summary(result)}\n`);
    log(`SMTP sink: ${smtp.mails.length} messages received`);
    process.exitCode = result.exitCode === 0 ? 0 : 1;
  } finally {
    await Promise.all(running.map((server) => server.stop()));
    for (const cleanup of cleanups.reverse()) await cleanup().catch((error) => log(`cleanup: ${error}`));
    if (process.env.AUTH_JS_SUITE_KEEP_LOGS) log(`server logs kept in ${runDir}`);
    else rmSync(runDir, { recursive: true, force: true });
  }
}

await main().catch((error: unknown) => {
  log(`suite:auth-js: ${error instanceof Error ? error.message : String(error)}`);
  process.exitCode = 2;
});
