import { type PkceChallenge, parsePkceChallenge } from "@authsvc/core/pkce";
import { text, unwrap } from "./body.js";

/** The PKCE fields of a body that starts an email flow (`auth-js` sends them as null outside PKCE). */
export const pkceFields = { code_challenge: text, code_challenge_method: text };

/** The body's PKCE challenge, checked (`400 validation_failed`), or null for an implicit flow. */
export function pkceOf(body: { code_challenge?: string; code_challenge_method?: string }): {
  pkce?: PkceChallenge;
} {
  const challenge = unwrap(parsePkceChallenge(body.code_challenge, body.code_challenge_method));
  return challenge === null ? {} : { pkce: challenge };
}
