/**
 * The URL of a server's embedded database with the password of that start, from its log lines: the
 * URL from "embedded database started", the password from the line only debug level shows.
 */
export function embeddedDatabaseUrl(lines: readonly Record<string, unknown>[]): string {
  const started = lines.find((l) => l.msg === "embedded database started");
  const secret = lines.find((l) => typeof l.database_password === "string");
  if (!started || !secret) throw new Error("no embedded database URL and password in the log (debug level?)");
  const url = new URL(String(started.database));
  url.password = String(secret.database_password);
  return url.toString();
}
