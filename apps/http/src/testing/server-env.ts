import { type FreshNamespace, testDatabase } from "@authsvc/adapters/testing";
import { SignJWT } from "jose";

export const TEST_JWT_SECRET = "an-e2e-test-secret-of-at-least-32-chars";

/** A production-style configuration on the run's database, in the namespace `ns`. */
export function productionServerEnv(
  ns: FreshNamespace,
  extra: Record<string, string> = {},
): Record<string, string> {
  const db = testDatabase();
  return {
    DATABASE_URL: db.url,
    AUTHSVC_DB_NAMESPACE: ns.namespace,
    // The fallback test database is an embedded server shared by every process of the run.
    AUTHSVC_DB_PREPARED_STATEMENTS: db.embedded ? "false" : "true",
    AUTHSVC_SITE_URL: "http://localhost:3000",
    AUTHSVC_API_EXTERNAL_URL: "http://localhost:9999",
    AUTHSVC_JWT_SECRET: TEST_JWT_SECRET,
    AUTHSVC_API_HOST: "127.0.0.1",
    PORT: "0",
    ...extra,
  };
}

/** A key like Supabase's: a JWT whose only claim that matters is the role. */
export async function roleKey(role: string, secret = TEST_JWT_SECRET): Promise<string> {
  const now = Math.floor(Date.now() / 1000);
  return new SignJWT({ role })
    .setProtectedHeader({ alg: "HS256", typ: "JWT" })
    .setIssuedAt(now)
    .setExpirationTime(now + 3600)
    .sign(new TextEncoder().encode(secret));
}
