import { SignJWT } from "jose";
import type { JwtKeyRing } from "./jwt-keys.js";

const TEN_YEARS_S = 10 * 365 * 24 * 3600;

/**
 * An API key in the Supabase sense: a long-lived JWT whose only meaningful claim is `role`
 * (`anon` or `service_role`). authsvc prints such keys in embedded development mode: HS256 with the
 * secret, or, when `JWT_KEYS` is set, signed by its signing key (kid in the header), so they verify
 * whatever the key set holds.
 */
export async function signApiKey(
  secret: string,
  role: "anon" | "service_role",
  nowS: number,
  ring?: JwtKeyRing,
): Promise<string> {
  const jwt = new SignJWT({ role })
    .setIssuer("authsvc")
    .setIssuedAt(nowS)
    .setExpirationTime(nowS + TEN_YEARS_S);
  if (ring !== undefined) {
    const { alg, kid, signingKey } = ring.signing;
    return jwt.setProtectedHeader({ alg, kid, typ: "JWT" }).sign(signingKey);
  }
  return jwt.setProtectedHeader({ alg: "HS256", typ: "JWT" }).sign(new TextEncoder().encode(secret));
}
