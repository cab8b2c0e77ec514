/**
 * JWT secrets printed in public documentation and example files. A server that signs with one hands
 * out admin rights: anyone can sign a `service_role` token with it. Copying them is easy (they are
 * long enough to pass every length check, and a Supabase project started from its examples has them),
 * so outside embedded mode they are refused by name.
 */
const PUBLISHED_JWT_SECRETS: ReadonlySet<string> = new Set([
  // The Supabase CLI's local `jwt_secret` (`supabase start`, config.toml), in its docs and many tutorials.
  "super-secret-jwt-token-with-at-least-32-characters-long",
  // The self-hosted Supabase docker `.env.example`'s JWT_SECRET.
  "your-super-secret-jwt-token-with-at-least-32-characters-long",
  // supabase-js's auth-js test infrastructure (infra/docker-compose.yml), whose demo keys are public.
  "37c304f8-51aa-419a-a1af-06154e63707a",
]);

/** Whether `secret` (a JWT secret, or an HS256 key's bytes as text) is one of the published ones. */
export function isPublishedJwtSecret(secret: string): boolean {
  return PUBLISHED_JWT_SECRETS.has(secret.trim());
}
