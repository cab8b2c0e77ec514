import type { CodeChallengeMethod } from "../pkce/index.js";
import type { AmrEntry } from "../sessions/index.js";

/** The scopes a client may ask for. */
export const OAUTH_SCOPES = ["openid", "profile", "email", "phone", "offline_access"] as const;

export type AuthorizationStatus = "pending" | "approved" | "denied" | "expired";

/** An authorization request (`GET /oauth/authorize`), waiting for the user's consent, then for its code. */
export interface OAuthAuthorization {
  readonly id: string;
  /** What the consent page is handed: 32 random characters. */
  readonly authorizationId: string;
  readonly clientId: string;
  /** Bound to the first user who opens it (`GET /oauth/authorizations/{id}`). */
  readonly userId: string | null;
  readonly redirectUri: string;
  /** Space-separated. */
  readonly scope: string;
  readonly state: string | null;
  readonly resource: string | null;
  readonly codeChallenge: string;
  readonly codeChallengeMethod: CodeChallengeMethod;
  readonly nonce: string | null;
  readonly status: AuthorizationStatus;
  /** SHA-256 of the authorization code, set on approval. */
  readonly codeHash: string | null;
  readonly createdAt: Date;
  /** The request and its code expire together (`OAUTH_SERVER_AUTHORIZATION_TTL` after creation). */
  readonly expiresAt: Date;
  readonly approvedAt: Date | null;
  /** When the approving user last signed in: the ID token's `auth_time`. */
  readonly authTime: Date | null;
  /**
   * How the approving user had proved who they are (the session they consented from): the level and
   * methods the code's session starts with. Null before approval, or when no session is known.
   */
  readonly authentication?: ApprovalAuthentication | null;
  /**
   * The session the code's exchange started, set when the code is spent: a second use of the code
   * ends it (RFC 6749 §4.1.2). Absent (or null) while the code is unspent.
   */
  readonly sessionId?: string | null;
  /**
   * Set when a device (RFC 8628) made the request at `/oauth/device_authorization` rather than a
   * browser at `/oauth/authorize`: approving it issues no code, the device polls for its tokens.
   */
  readonly device?: DeviceRequest | null;
  /**
   * The JWK SHA-256 thumbprint of the DPoP key the request named (`dpop_jkt`, RFC 9449 §10) or its
   * pushed request proved: its code is exchanged with a proof of that key only. Absent: no key.
   */
  readonly dpopJkt?: string | null;
}

/** The assurance level and methods of the session a request was approved from. */
export interface ApprovalAuthentication {
  readonly aal: "aal1" | "aal2";
  readonly amr: readonly AmrEntry[];
}

/** What a device's request (RFC 8628) keeps beside an authorization request's fields. */
export interface DeviceRequest {
  /** SHA-256 of the device code the device polls with. */
  readonly deviceCodeHash: string;
  /** Keyed MAC of the normalised user code the user types (`SecretTokens.flowBinding`). */
  readonly userCodeHash: string;
  /** Seconds the device must wait between polls; grows by 5 at each `slow_down`. */
  readonly interval: number;
  /** The previous poll, to tell a device polling faster than `interval`. */
  readonly lastPolledAt: Date | null;
}

/** The scopes of a space-separated list, each once, in order. */
export function scopesOf(scope: string): string[] {
  return [...new Set(scope.split(" ").filter((s) => s !== ""))];
}

/** Whether every scope of `wanted` is among `granted`. */
export function scopesCovered(wanted: string, granted: string): boolean {
  const have = new Set(scopesOf(granted));
  return scopesOf(wanted).every((s) => have.has(s));
}

/** A consent a user gave a client: the scopes and resources granted, until revoked. */
export interface OAuthConsent {
  readonly id: string;
  readonly userId: string;
  readonly clientId: string;
  readonly scopes: string;
  /**
   * The resources (RFC 8707) the user approved the client's tokens for, each once: a request naming
   * another one is shown to the user again, however its scopes are covered.
   */
  readonly resources: readonly string[];
  readonly grantedAt: Date;
  readonly revokedAt: Date | null;
}

/**
 * A scope the operator defines beside OpenID Connect's (`POST /admin/oauth/scopes`): what a resource
 * server (an MCP server, an API) lets a token do, with the words the consent page shows the user. A
 * scope bound to a `resource` is granted only for that resource: a request naming it must name the
 * resource too, so the token that carries it is one that resource server accepts (its `aud`).
 */
export interface OAuthScope {
  /** RFC 6749 §3.3's scope-token: printable ASCII but space, `"` and `\`; at most 128 characters. */
  readonly scope: string;
  readonly resource: string | null;
  /** What the scope lets a client do, as the consent page says it. */
  readonly description: string;
  readonly createdAt: Date;
}
