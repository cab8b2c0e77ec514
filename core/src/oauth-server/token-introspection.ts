import { failures } from "../failures.js";
import { err, isUuid, ok, type Result } from "../kernel/index.js";
import type { Session } from "../sessions/index.js";
import { clientIdOf, type OAuthClient } from "./client.js";
import type { OAuthServerDeps } from "./deps.js";

type Deps = Pick<OAuthServerDeps, "store" | "tokens" | "signer" | "clock">;

/**
 * The claims of `token` when it is a `client_credentials` token this server signed for `client`, still
 * unexpired: its subject is the client and it names no session (token-kind.ts's `machine`).
 */
async function machineTokenOf(
  deps: Pick<Deps, "signer">,
  client: OAuthClient,
  token: string,
): Promise<Readonly<Record<string, unknown>> | null> {
  if (!token.includes(".") || !client.grantTypes.includes("client_credentials")) return null;
  const claims = await deps.signer.verify(token);
  if (claims == null || claims.session_id !== undefined) return null;
  return claims.client_id === client.id && claims.sub === client.id ? claims : null;
}

/** A token of `client` that is still live: the session it belongs to, and what kind it is. */
interface LiveToken {
  readonly session: Session;
  readonly kind: "access_token" | "refresh_token";
  readonly claims?: Readonly<Record<string, unknown>>;
}

/**
 * The live session `token` (a refresh token, or an access token this server signed) belongs to, when
 * it was issued to `client`; null for anything else — another client's token, a first-party one, a
 * revoked, expired or unknown one — so that nothing tells them apart.
 */
async function liveTokenOf(
  deps: Deps,
  client: OAuthClient,
  token: string,
  hint: string | undefined,
): Promise<LiveToken | null> {
  const asRefresh = async (): Promise<LiveToken | null> => {
    const record = await deps.store.sessions.findTokenByHash(deps.tokens.hash(token));
    if (record === null || record.revoked) return null;
    const session = await deps.store.sessions.find(record.sessionId);
    return session === null ? null : { session, kind: "refresh_token" };
  };
  const asAccess = async (): Promise<LiveToken | null> => {
    const claims = await deps.signer.verify(token);
    const sessionId = claims?.session_id;
    if (claims == null || typeof sessionId !== "string" || !isUuid(sessionId)) return null;
    const session = await deps.store.sessions.find(sessionId);
    // A token of this client names it as the client goes by (its metadata document's URL, if any).
    if (session === null || session.oauthClientId !== client.id || claims.client_id !== clientIdOf(client))
      return null;
    return { session, kind: "access_token", claims };
  };
  // A JWS has two dots; a refresh token none: the hint only chooses which is tried first (RFC 7009 §2.1).
  const order =
    hint === "refresh_token" || !token.includes(".") ? [asRefresh, asAccess] : [asAccess, asRefresh];
  for (const read of order) {
    const live = await read();
    if (live !== null) return live.session.oauthClientId === client.id ? live : null;
  }
  return null;
}

/**
 * `POST /oauth/revoke` (RFC 7009): ends the session the token belongs to when the authenticated client
 * holds it — its refresh tokens stop at once, its access tokens at the next check of the session.
 * Answered alike whatever the token was (RFC 7009 §2.2: an invalid token is not an error).
 */
export async function revokeToken(
  deps: Deps,
  input: {
    readonly client: OAuthClient;
    readonly token: string | undefined;
    readonly hint?: string | undefined;
  },
): Promise<Result<void>> {
  if (!input.token) return err(failures.tokenTokenMissing());
  // A client_credentials token is self-contained, with no session to end: RFC 7009 §2.2.1's answer,
  // to its own client only (anyone else's token is answered as any invalid one).
  if ((await machineTokenOf(deps, input.client, input.token)) !== null)
    return err(failures.machineTokenNotRevocable());
  const live = await liveTokenOf(deps, input.client, input.token, input.hint);
  if (live !== null) await deps.store.sessions.delete(live.session.id);
  return ok(undefined);
}

/**
 * `POST /oauth/introspect` (RFC 7662), for confidential clients: whether the token is live and, when
 * it is and was issued to the caller, what it grants. Any other token is `{active: false}`.
 */
export async function introspectToken(
  deps: Deps,
  input: {
    readonly client: OAuthClient;
    readonly token: string | undefined;
    readonly hint?: string | undefined;
  },
): Promise<Result<Readonly<Record<string, unknown>>>> {
  if (input.client.clientType !== "confidential") return err(failures.introspectionNeedsConfidentialClient());
  if (!input.token) return err(failures.tokenTokenMissing());
  const machine = await machineTokenOf(deps, input.client, input.token);
  if (machine !== null)
    return ok({
      active: true,
      client_id: input.client.id,
      scope: typeof machine.scope === "string" ? machine.scope : "",
      sub: input.client.id,
      token_type: "access_token",
      exp: machine.exp,
      iat: machine.iat,
      iss: machine.iss,
      ...(machine.aud === undefined ? {} : { aud: machine.aud }),
      // RFC 9449 §6.2: a bound token's key, for the resource server to check the proof against.
      ...(machine.cnf === undefined ? {} : { cnf: machine.cnf }),
    });
  const live = await liveTokenOf(deps, input.client, input.token, input.hint);
  if (live === null) return ok({ active: false });
  const { session, claims } = live;
  // RFC 9449 §6.2: a bound token's key, for the resource server to check the proof against.
  const cnf = claims ? claims.cnf : session.dpopJkt ? { jkt: session.dpopJkt } : undefined;
  const jkt = typeof cnf === "object" && cnf !== null ? (cnf as { jkt?: unknown }).jkt : undefined;
  // An access token's own scopes: a token exchange narrows them below its session's.
  const scope = typeof claims?.scope === "string" ? claims.scope : (session.scopes ?? "");
  return ok({
    active: true,
    client_id: clientIdOf(input.client),
    scope,
    sub: session.userId,
    token_type: live.kind,
    ...(claims
      ? {
          exp: claims.exp,
          iat: claims.iat,
          iss: claims.iss,
          aud: claims.aud,
          ...(claims.act === undefined ? {} : { act: claims.act }),
        }
      : { iat: Math.floor(session.createdAt.getTime() / 1000) }),
    ...(typeof jkt === "string" ? { cnf: { jkt } } : {}),
  });
}
