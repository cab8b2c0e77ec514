import type { Clock } from "../../kernel/index.js";
import type { AccessTokenClaims, MachineTokenClaims, TokenSigner } from "../../sessions/index.js";

/** "Signs" by JSON-encoding the claims with a prefix; verifies by decoding (and checking exp). */
export function fakeSigner(clock: Clock): TokenSigner {
  return {
    sign: async (claims: AccessTokenClaims | MachineTokenClaims) => `jwt.${JSON.stringify(claims)}`,
    verify: async (token) => {
      if (!token.startsWith("jwt.")) return null;
      try {
        const claims = JSON.parse(token.slice(4)) as Record<string, unknown>;
        return typeof claims.exp === "number" && claims.exp * 1000 > clock.now().getTime() ? claims : null;
      } catch {
        return null;
      }
    },
  };
}
