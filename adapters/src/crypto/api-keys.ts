import { SignJWT } from "jose";

const TEN_YEARS_S = 10 * 365 * 24 * 3600;

/**
 * An API key in the Supabase sense: a long-lived HS256 JWT whose only meaningful claim is `role`
 * (`anon` or `service_role`). authsvc prints such keys in embedded development mode.
 */
export async function signApiKey(
  secret: string,
  role: "anon" | "service_role",
  nowS: number,
): Promise<string> {
  return new SignJWT({ role })
    .setProtectedHeader({ alg: "HS256", typ: "JWT" })
    .setIssuer("authsvc")
    .setIssuedAt(nowS)
    .setExpirationTime(nowS + TEN_YEARS_S)
    .sign(new TextEncoder().encode(secret));
}
