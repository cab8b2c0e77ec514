import type { Metadata, User } from "../accounts/index.js";
import type { AmrEntry, Session } from "./session.js";

/**
 * The access token's claims (docs/http-api.md, Access tokens). `aud` is a string, as GoTrue serialises
 * it, but in the token of an OAuth client whose request named a resource (RFC 8707): the user's
 * audience first (what first-party APIs read, as `aud[0]`), then the resource.
 */
export interface AccessTokenClaims {
  readonly iss?: string;
  readonly sub: string;
  readonly aud: string | string[];
  readonly exp: number;
  readonly iat: number;
  readonly email: string;
  /** Digits only, without `+`, as the reference stores phones. */
  readonly phone: string;
  readonly app_metadata: Metadata;
  readonly user_metadata: Metadata;
  readonly role: string;
  readonly aal: "aal1" | "aal2";
  readonly amr: readonly AmrEntry[];
  readonly session_id: string;
  readonly is_anonymous: boolean;
  /** An OAuth client's session: the client and the scopes granted to it (space-separated). */
  readonly client_id?: string;
  readonly scope?: string;
  /** A DPoP-bound token (RFC 9449 §6): the thumbprint of the key whose proofs must come with it. */
  readonly cnf?: { readonly jkt: string };
  /**
   * A token obtained by token exchange for delegation (RFC 8693 §4.1): who acts for `sub` — the
   * client, or the subject of the actor token — and, nested, who acted before.
   */
  readonly act?: ActorClaim;
}

/** RFC 8693 §4.1's `act`: the acting party, and the one before it in a chain of delegations. */
export interface ActorClaim {
  readonly sub: string;
  readonly client_id?: string;
  readonly act?: ActorClaim;
}

/**
 * The claims of an OAuth client's own token (`client_credentials`, RFC 6749 §4.4): the client is the
 * subject (`sub` = `client_id`), no session, no user; `aud` the resource it was asked for (RFC 8707).
 */
export interface MachineTokenClaims {
  readonly iss: string;
  readonly sub: string;
  readonly aud?: string;
  readonly exp: number;
  readonly iat: number;
  readonly jti: string;
  readonly client_id: string;
  readonly scope: string;
  /** `OAUTH_SERVER_CLIENT_CREDENTIALS_ROLE`: what row-level security sees; never a user's role. */
  readonly role: string;
  /** RFC 9449 §6.1: the DPoP key the token is bound to, when its request carried a proof. */
  readonly cnf?: { readonly jkt: string };
}

/**
 * The role an OAuth client's token carries: the user's, but never one of the admin roles — the user
 * granted the client some scopes, not the powers an admin gave the account (which a data API reading
 * `role` would hand the client).
 */
function clientRole(user: User, adminRoles: readonly string[]): string {
  return adminRoles.includes(user.role) ? "authenticated" : user.role;
}

/** The claims of a fresh access token for `user` in `session`, valid for `expSeconds` from `now`. */
export function accessTokenClaims(
  user: User,
  session: Session,
  options: { now: Date; expSeconds: number; issuer?: string | undefined; adminRoles: readonly string[] },
): AccessTokenClaims {
  const iat = Math.floor(options.now.getTime() / 1000);
  const ofClient = session.oauthClientId !== undefined;
  return {
    ...(options.issuer ? { iss: options.issuer } : {}),
    sub: user.id,
    aud: ofClient && session.resource ? [user.aud, session.resource] : user.aud,
    exp: iat + options.expSeconds,
    iat,
    email: user.email ?? "",
    phone: user.phone ?? "",
    app_metadata: user.appMetadata,
    user_metadata: user.userMetadata,
    role: ofClient ? clientRole(user, options.adminRoles) : user.role,
    aal: session.aal,
    amr: [...session.amr].sort((a, b) => b.timestamp - a.timestamp),
    session_id: session.id,
    is_anonymous: user.isAnonymous,
    ...(session.oauthClientId === undefined
      ? {}
      : { client_id: session.oauthClientUrl ?? session.oauthClientId, scope: session.scopes ?? "" }),
    ...(session.dpopJkt === undefined ? {} : { cnf: { jkt: session.dpopJkt } }),
  };
}
