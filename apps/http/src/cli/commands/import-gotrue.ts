import {
  connectPostgres,
  ImportFailure,
  importGotrue as importDatabase,
  referenceKeysFrom,
  referenceSecretOpener,
} from "@authsvc/adapters";
import { openDatabase } from "../../infrastructure/database/database.js";
import { secretBoxOf, tokensOf } from "../../infrastructure/jwt/crypto.js";
import { createLogger } from "../../infrastructure/telemetry/logger.js";
import { maskUrlPasswords } from "../../infrastructure/telemetry/url-password.js";
import type { Command } from "../command.js";
import { configure, environment } from "../environment.js";
import { parseImportArgs } from "./import-gotrue-args.js";
import { progressLine, summaryText } from "./import-gotrue-report.js";

const USAGE = `usage: authsvc import-gotrue --from <database URL> [--schema auth] [--with-audit] [--batch-size 1000]

Copies the users of a GoTrue (Supabase Auth) database into this server's database, so that people
keep their passwords and signed-in clients keep refreshing: users (password hashes kept, upgraded to
argon2id at the next sign-in), identities, TOTP and phone factors, sessions and their refresh tokens
(stored hashed), and with --with-audit the audit log. The target is this server's configured
database (DATABASE_URL, AUTHSVC_DB_NAMESPACE), migrated first. A second run changes nothing; an
interrupted run is resumed by running it again.

options:
  --from <url>        the GoTrue database (postgres://…); only read
  --schema <name>     its schema (GoTrue's DB_NAMESPACE; default auth)
  --with-audit        also copy audit_log_entries
  --batch-size <n>    rows per transaction, 1–5000 (default 1000)

TOTP secrets GoTrue encrypted open with its own keys, read from its variables:
  GOTRUE_SECURITY_DB_ENCRYPTION_ENCRYPTION_KEY_ID, GOTRUE_SECURITY_DB_ENCRYPTION_ENCRYPTION_KEY,
  GOTRUE_SECURITY_DB_ENCRYPTION_DECRYPTION_KEYS
They are stored again as this server stores them (AUTHSVC_SECURITY_DB_ENCRYPTION_*).
See docs/import-gotrue.md.`;

/** `authsvc import-gotrue`: moves users, sessions and factors over from a GoTrue database. */
export const importGotrue: Command = {
  name: "import-gotrue",
  summary: "copy users, identities, factors and sessions from a GoTrue database",
  usage: USAGE,
  async run(args) {
    const parsed = parseImportArgs(args);
    if (!parsed.ok) {
      process.stderr.write(`authsvc import-gotrue: ${parsed.error}\n${USAGE}\n`);
      return 2;
    }
    let keys: ReturnType<typeof referenceKeysFrom>;
    try {
      keys = referenceKeysFrom(environment());
    } catch (error) {
      process.stderr.write(`authsvc import-gotrue: ${(error as Error).message}\n`);
      return 2;
    }
    const { config } = configure();
    const { from, schema, withAudit, batchSize } = parsed.value;
    if (config.db.url === from && config.db.namespace === schema) {
      process.stderr.write("authsvc import-gotrue: the source is this server's own schema\n");
      return 2;
    }
    // The migrations' lines would bury the progress; faults still show.
    const logger = createLogger({ level: "warn", file: config.log.file });
    const source = connectPostgres({ url: from, maxPoolSize: 1, connectTimeoutMs: 10_000 });
    let target: Awaited<ReturnType<typeof openDatabase>> | undefined;
    try {
      target = await openDatabase(config, logger);
      const box = secretBoxOf(config);
      const tokens = tokensOf(config);
      const summary = await importDatabase(
        {
          source,
          sourceSchema: schema,
          target: target.sql,
          namespace: config.db.namespace,
          hashToken: tokens.hash,
          seal: box.seal,
          openReferenceSecret: referenceSecretOpener(keys),
        },
        {
          withAudit,
          batchSize,
          ...(process.stderr.isTTY ? { onProgress: progressLine(process.stderr) } : {}),
        },
      );
      process.stdout.write(summaryText(summary));
      return 0;
    } catch (error) {
      process.stderr.write(`authsvc import-gotrue: ${describe(error)}\n`);
      return 1;
    } finally {
      await source.end({ timeout: 5 });
      await target?.sql.end({ timeout: 5 });
      await target?.embedded?.stop();
      logger.flush();
    }
  },
};

/**
 * A sentence for the person running the import; a database error's text names no row values, and is
 * scrubbed of passwords: a connection error can quote a database URL with its password.
 */
function describe(error: unknown): string {
  if (error instanceof ImportFailure) return maskUrlPasswords(error.message);
  const { code, message } = error as { code?: unknown; message?: unknown };
  const text = typeof message === "string" ? message : String(error);
  return maskUrlPasswords(typeof code === "string" ? `${text} (${code})` : text);
}
