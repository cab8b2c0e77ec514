import { type AuthError, OAUTH_ERROR_CODES } from "@authsvc/core/kernel";
import { WEB3_INVALID_GRANT } from "@authsvc/core/web3";
import type { Context } from "hono";
import type { AppEnv } from "../app-env.js";
import type { GrantEndpoint } from "./http-grant.js";

/** OAuth's own error words (RFC 6749 §5.2, RFC 8707's `invalid_target`, and the server's fault). */
export const OAUTH_WORDS: ReadonlySet<string> = new Set(OAUTH_ERROR_CODES);

/**
 * The failures of grants that `POST /token` answers as an OAuth error body rather than GoTrue's
 * envelope, with the word the reference answers (its words, spaces and all).
 */
const TOKEN_OAUTH_ERRORS: ReadonlyMap<string, string> = new Map([
  ["badIdToken", "invalid request"],
  ["idTokenAudienceUnacceptable", "invalid request"],
  ["idTokenNonceBothOrNeither", "invalid request"],
  ["idTokenNonceMismatch", "invalid nonce"],
  // An OAuth client's session is refreshed at `POST /oauth/token` only.
  ["oauthSessionNeedsItsClient", "invalid_client"],
  // A refusal of a well-formed sign-in message: signature, site, time, replay.
  ...[...WEB3_INVALID_GRANT].map((failure): [string, string] => [failure, "invalid_grant"]),
]);

/**
 * The OAuth error word `endpoint` answers `error` with, or `undefined` for GoTrue's envelope. At
 * `POST /oauth/token` (and the OAuth server's other endpoints) the use cases speak OAuth already:
 * every failure whose code is an OAuth word is answered by it.
 */
export function oauthErrorOf(endpoint: GrantEndpoint, error: AuthError): string | undefined {
  if (endpoint === "/token") return TOKEN_OAUTH_ERRORS.get(error.failure);
  return OAUTH_WORDS.has(error.code) ? error.code : undefined;
}

/** An OAuth error body (RFC 6749 §5.2): 400, as the reference answers them; a server fault stays a 500. */
export function oauthError(c: Context<AppEnv>, word: string, description: string): Response {
  return c.json({ error: word, error_description: description }, word === "server_error" ? 500 : 400);
}

/** `error` as `endpoint` answers it: an OAuth error body when the table says so, else thrown to GoTrue's envelope. */
export function grantFailure(c: Context<AppEnv>, endpoint: GrantEndpoint, error: AuthError): Response {
  const word = oauthErrorOf(endpoint, error);
  if (word === undefined) throw error;
  return oauthError(c, word, error.message);
}
