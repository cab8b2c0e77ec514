import type { AccessTokenClaims, MachineTokenClaims } from "../claims.js";

/** Signs and verifies access tokens (HS256 with `JWT_SECRET`, or the `JWT_KEYS` key set). */
export interface TokenSigner {
  /** A compact JWS of `claims`, signed with the configured key and algorithm. */
  sign(claims: AccessTokenClaims | MachineTokenClaims): Promise<string>;
  /**
   * The claims of a token signed by this server with the configured algorithm and not expired;
   * null for anything else (bad signature, other algorithm, `none`, expired, malformed).
   */
  verify(token: string): Promise<Readonly<Record<string, unknown>> | null>;
}
