/** One authentication method recorded on a session (the `amr` claim). */
export interface AmrEntry {
  readonly method: string;
  /** Unix seconds. */
  readonly timestamp: number;
}

/** A sign-in: created by every login, holding a chain of refresh tokens. */
export interface Session {
  readonly id: string;
  readonly userId: string;
  readonly aal: "aal1" | "aal2";
  readonly amr: readonly AmrEntry[];
  readonly createdAt: Date;
  readonly updatedAt: Date;
  /** When the session was last refreshed (`refreshed_at`); null until its first refresh. */
  readonly refreshedAt: Date | null;
  /**
   * A hard end set when the session was created (`not_after`), or null. The reference sets it only for
   * SAML sign-ins (the assertion's NotOnOrAfter); nothing here sets it yet, but a stored one is obeyed.
   */
  readonly notAfter: Date | null;
  /**
   * The OAuth client the session was issued to (authsvc as an OAuth server), absent for a first-party
   * session: only that client refreshes it, at `POST /oauth/token`.
   */
  readonly oauthClientId?: string;
  /**
   * That client's `client_id` when it is a URL (a client ID metadata document, whose row `oauthClientId`
   * names): what its tokens carry as `client_id`. Read from the client, never stored in the session.
   */
  readonly oauthClientUrl?: string;
  /** The scopes granted to that client, space-separated (absent with `oauthClientId`). */
  readonly scopes?: string;
  /**
   * The resource (RFC 8707) the client's authorization request named, absent when it named none (and
   * for a first-party session): its access tokens name it in `aud`, for the resource server to check.
   */
  readonly resource?: string;
  /**
   * The thumbprint (RFC 7638) of the DPoP key the client proved when the session started (RFC 9449),
   * absent for an unbound session: its access tokens carry it as `cnf.jkt`, and its refresh tokens
   * are refused without a proof of that key.
   */
  readonly dpopJkt?: string;
}

/** A refresh token as stored: only its SHA-256 hash is kept. */
export interface RefreshTokenRecord {
  readonly id: string;
  readonly sessionId: string;
  readonly userId: string;
  readonly tokenHash: string;
  /** The token this one replaced, or null for the first of a session. */
  readonly parentId: string | null;
  readonly revoked: boolean;
  readonly createdAt: Date;
  /** When it was last changed: for a revoked token, when it was revoked (rotated). */
  readonly updatedAt: Date;
}
