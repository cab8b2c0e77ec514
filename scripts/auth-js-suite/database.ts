/**
 * The run's database: a fresh one made on the server `AUTH_JS_SUITE_DATABASE_URL` points at and dropped
 * afterwards, so that every run starts from an empty schema as the suite's compose file does. The
 * database named in that URL is only used to create and drop the run's own.
 */
import postgres from "postgres";

export interface RunDatabase {
  readonly url: string;
  drop(): Promise<void>;
}

export async function freshDatabase(adminUrl: string): Promise<RunDatabase> {
  const name = `auth_js_suite_${Date.now().toString(36)}_${process.pid}`;
  const admin = postgres(adminUrl, { max: 1, onnotice: () => {} });
  try {
    await admin`create database ${admin(name)}`;
  } finally {
    await admin.end();
  }
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      const sql = postgres(adminUrl, { max: 1, onnotice: () => {} });
      try {
        await sql`drop database if exists ${sql(name)} with (force)`;
      } finally {
        await sql.end();
      }
    },
  };
}
