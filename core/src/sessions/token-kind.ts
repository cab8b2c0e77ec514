import { NIL_UUID } from "../kernel/index.js";

/**
 * What a token this server's keys verify is for (docs/http-api.md, "Token kinds"). Every token is one
 * of them, told apart by its claims alone (the signer returns claims, and one key signs them all):
 *
 * - `user`: a first-party access token — a `sub`, no `client_id` (it names its session; a token the
 *   key's holder minted without one is accepted as the reference accepts it);
 * - `client`: an OAuth client's access token — a `sub`, a `session_id` and the `client_id` (and
 *   `scope`) of the client the user granted. A token exchange (RFC 8693, oauth-server/token-exchange.ts)
 *   issues this kind too: the user's `sub` and session, the requesting client's `client_id`, the
 *   resource as `aud`, and, for delegation, `act` (who acts for the user). It is accepted where a
 *   client's token is and nowhere else: never on the user's account endpoints, never as an admin;
 *   at `/oauth/userinfo` with the token's (narrowed) scopes only;
 * - `machine`: an OAuth client's own token (`client_credentials`, RFC 6749 §4.4) — the client is its
 *   subject (`sub` equals `client_id`) and it names no session: no user is behind it, so no user's
 *   endpoint accepts it;
 * - `api_key`: an API key (`anon`, `service_role`) — no `sub`, only a `role`;
 * - `id_token`: an OpenID Connect ID token of the OAuth server — marked `token_use: "id"`, and, marked
 *   or not, a `sub` and a `client_id` without a session. It tells a client who signed in: never a
 *   bearer token.
 */
export type TokenKind = "user" | "client" | "machine" | "api_key" | "id_token";

/** The kinds an endpoint may accept as its bearer: an ID token is none of them. */
export type BearerKind = Exclude<TokenKind, "id_token">;

/** The claim every ID token carries, so that no endpoint takes it for an access token. */
export const ID_TOKEN_USE = { claim: "token_use", value: "id" } as const;

const filled = (value: unknown): boolean => value !== undefined && value !== null && value !== "";

/** The kind of a verified token, from its claims. */
export function tokenKind(claims: Readonly<Record<string, unknown>>): TokenKind {
  if (claims[ID_TOKEN_USE.claim] === ID_TOKEN_USE.value) return "id_token";
  if (!filled(claims.sub)) return "api_key";
  const namesSession = filled(claims.session_id) && claims.session_id !== NIL_UUID;
  // A client's access token always names its session; a user's token bound to a client without one
  // is an ID token, also one signed before ID tokens were marked.
  if (filled(claims.client_id)) {
    if (namesSession) return "client";
    // The client's own token: its subject is the client. An ID token's subject is always a user.
    return claims.sub === claims.client_id ? "machine" : "id_token";
  }
  return "user";
}
