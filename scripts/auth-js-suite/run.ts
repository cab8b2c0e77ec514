/**
 * Runs the official auth-js test suite, unchanged, against authsvc (docs/compatibility.md).
 *
 *   npm run suite:auth-js -- <auth-js checkout> [jest arguments…]
 *
 * The checkout (argument, or AUTH_JS_SUITE_DIR) is either the old auth-js repository (`npm install`
 * at its root and in `test/`) or supabase-js's `packages/core/auth-js` (`npm install` in it), told
 * apart by `test/supabase/config.toml` (layouts.ts). Starts an SMTP sink on 2500, for the old layout a
 * loopback Twilio and one authsvc per GoTrue service of its infra/docker-compose.yml, for the newer
 * one authsvc on the CLI's API port under /auth/v1 as its config.toml describes; all on one fresh
 * database of the Postgres server at AUTH_JS_SUITE_DATABASE_URL; runs jest; stops everything; prints
 * passed/failed/total and each failing test. AUTH_JS_SUITE_REPORT=<file> also writes every test's
 * outcome there as JSON.
 */
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { startSmtpSink, startTwilioFake } from "@authsvc/adapters/testing";
import { freshDatabase } from "./database.js";
import { runSuite, type SuiteResult } from "./jest.js";
import { layoutOf } from "./layouts.js";
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
  const layout = layoutOf(checkout);
  for (const { path, hint } of layout.needs) {
    if (!existsSync(join(checkout, path))) fail(`${join(checkout, path)} is missing: ${hint}`);
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
    layout.prepare();
    const smtp = await startSmtpSink({
      port: SMTP_PORT,
      ...(layout.smtpAuth ? { auth: layout.smtpAuth } : {}),
    });
    cleanups.push(() => smtp.close());
    // A Twilio that knows other credentials than the servers': every text fails, as in the suite's CI.
    const twilio = layout.usesTwilio
      ? await startTwilioFake({ accountSid: "AC-accepted", authToken: "accepted", sender: "+15550000000" })
      : undefined;
    if (twilio) cleanups.push(() => twilio.close());
    const { servers, ignored } = layout.servers({
      databaseUrl: database.url,
      smtpPort: SMTP_PORT,
      twilioUrl: twilio?.url ?? "",
    });
    if (ignored.length > 0) log(`${layout.name} layout: not mapped to authsvc: ${ignored.join(", ")}`);

    // The first server migrates the database alone; the others then start together.
    const [head, ...rest] = servers;
    if (head) running.push(await startSuiteServer(head, runDir));
    running.push(...(await Promise.all(rest.map((server) => startSuiteServer(server, runDir)))));
    for (const server of running) {
      const { name, port, basePath } = server.server;
      log(`${name}: http://localhost:${port}${basePath ?? ""} (log ${server.logFile})`);
      for (const warning of server.warnings()) log(`  warning: ${warning}`);
    }

    const reportFile = join(runDir, "jest-report.json");
    const result = await runSuite(checkout, layout.jest, reportFile, jestArgs, interrupt.signal);
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
