#!/usr/bin/env node
/**
 * `node adapters/dist/postgres/embedded-template-build.js`: run by `npm run build` after tsc. Makes the
 * embedded database's template (see embedded-template.ts) unless it is up to date, in which case it
 * only hashes the migrations and exits: `npm start` with nothing changed stays quick.
 */
import { defaultTemplateDir, prepareTemplate, TEMPLATE_NAMESPACE } from "./embedded-template.js";
import { migrate, resolveMigrationsDir } from "./migrate.js";

async function build(dataDir: string): Promise<void> {
  // Loaded only when a template is made: PGlite and postgres.js are not needed to check the stamp.
  const [{ startEmbeddedPostgres }, { connectPostgres }] = await Promise.all([
    import("./embedded-server.js"),
    import("./connect.js"),
  ]);
  const embedded = await startEmbeddedPostgres({ dataDir });
  try {
    const sql = connectPostgres({ url: embedded.url, maxPoolSize: 1, embedded: true });
    try {
      await migrate(sql, { namespace: TEMPLATE_NAMESPACE, migrationsDir: resolveMigrationsDir() });
      // The copies start from a clean checkpoint: less WAL to replay, and nothing left to vacuum.
      await sql`checkpoint`;
    } finally {
      await sql.end({ timeout: 5 });
    }
  } finally {
    await embedded.stop();
  }
}

const started = performance.now();
prepareTemplate(defaultTemplateDir(), resolveMigrationsDir(), build).then(
  (made) => {
    if (made) {
      const seconds = ((performance.now() - started) / 1000).toFixed(1);
      process.stdout.write(`embedded database template made in ${defaultTemplateDir()} (${seconds} s)\n`);
    }
  },
  (error: unknown) => {
    process.stderr.write(`embedded database template: ${(error as Error).message}\n`);
    process.exit(1);
  },
);
