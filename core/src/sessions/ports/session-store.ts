import type { UserWithIdentities } from "../../accounts/index.js";
import type { PortTraits } from "../../kernel/index.js";
import type { RefreshTokenRecord, Session } from "../session.js";
import type { SessionLimits } from "../settings.js";

/** What the refresh grant hands the store (`SessionStore.grantRefresh`). */
export interface RefreshGrantInput {
  /** SHA-256 of the presented refresh token. */
  readonly tokenHash: string;
  /** SHA-256 of the presented token's child (`SecretTokens.child`): inserted on rotation. */
  readonly childHash: string;
  readonly now: Date;
  readonly rotationEnabled: boolean;
  readonly reuseIntervalMs: number;
  /** `SESSIONS_*`: a session over them is refused before anything is decided (`sessionEnd`, `supersededBy`). */
  readonly limits: SessionLimits;
  /** The client's address, for the audit entries of a rotation; absent: none recorded. */
  readonly ipAddress?: string | undefined;
  /**
   * The OAuth client that authenticated (`POST /oauth/token`); absent for `POST /token`. A session
   * issued to a client is refreshed by it alone, and a first-party session by no client.
   */
  readonly clientId?: string | undefined;
  /**
   * The DPoP key the request proved (RFC 9449 §5), absent without a proof: a session bound to a key
   * is refreshed with a proof of that key only.
   */
  readonly dpopJkt?: string | undefined;
}

/**
 * The transition a refresh made (`decideRefresh`'s, plus the cases where there is nothing to decide):
 * `rotated` and `reissued` answer the session (as read before the refresh; its refresh time is `now`)
 * and its user with identities.
 */
export type RefreshGrantOutcome =
  | { readonly kind: "not_found" }
  /** The session belongs to an OAuth client and another one, or none, asked: nothing written. */
  | { readonly kind: "client_required" }
  /** A first-party session asked for by an OAuth client: nothing written. */
  | { readonly kind: "client_not_allowed" }
  /** The session is bound to a DPoP key the request did not prove: nothing written. */
  | { readonly kind: "dpop_key_mismatch" }
  | { readonly kind: "banned" }
  /** The session's `not_after` or timebox passed. */
  | { readonly kind: "session_expired" }
  /** The session was idle longer than the inactivity timeout. */
  | { readonly kind: "session_inactive" }
  /** Single session per user: another live session of the user was active more recently. */
  | { readonly kind: "session_superseded" }
  | { readonly kind: "refused" }
  | { readonly kind: "reused" }
  | {
      readonly kind: "rotated" | "reissued";
      readonly session: Session;
      readonly user: UserWithIdentities;
    };

/** What the password grant hands the store once the password is verified (`SessionStore.grantPassword`). */
export interface PasswordGrantInput {
  readonly userId: string;
  /** The hash the password was verified against: the grant is refused when it changed meanwhile. */
  readonly verifiedHash: string;
  /** An argon2id rehash of the password replacing an imported or outdated hash, else null. */
  readonly upgradedHash: string | null;
  readonly now: Date;
  /** The new session (its `userId` is `userId`). */
  readonly session: Session;
  /** SHA-256 of the session's first refresh token. */
  readonly refreshTokenHash: string;
  /** `traits.provider` of the `login` audit entry: `email` or `phone`. */
  readonly provider: string;
  /** The client's address, for the `login` audit entry; absent: none recorded. */
  readonly ipAddress?: string | undefined;
}

/**
 * Sessions and their refresh tokens. Tokens form a chain inside a session: each rotation revokes the
 * current token and inserts its child. Exactly one token of a live session is not revoked.
 */
export interface SessionStore {
  /**
   * Inserts a new session; with `firstTokenHash`, also its first refresh token (not revoked, no
   * parent, created at the session's creation) in the same step — one statement on Postgres.
   * Without it, the first token is inserted with `insertToken`.
   */
  create(session: Session, firstTokenHash?: string): Promise<void>;
  /** The session with this id, or null when it ended (logout, deletion) or never existed. */
  find(id: string): Promise<Session | null>;
  /**
   * What authenticating a request reads, in one step (one round trip on Postgres): the user with
   * identities (null when there is none) and, when `sessionId` is given, that session (null when it
   * ended or never existed).
   */
  findUserAndSession(
    userId: string,
    sessionId: string | null,
  ): Promise<{ user: UserWithIdentities | null; session: Session | null }>;
  /** The user's sessions, oldest first (`created_at`, then id). */
  listForUser(userId: string): Promise<Session[]>;
  /** Reads and row-locks the session (`for update`): refreshes of one session run one at a time. */
  lock(id: string): Promise<Session | null>;
  /** Records a refresh of the session at `at` (`refreshed_at`, `updated_at`). */
  markRefreshed(id: string, at: Date): Promise<void>;
  /** Deletes sessions of the user (all, or all but `except`), cascading to their refresh tokens. */
  deleteForUser(userId: string, options?: { except?: string }): Promise<number>;
  /** Deletes one session and its refresh tokens; false when there was none. */
  delete(id: string): Promise<boolean>;

  /** Inserts a refresh token (only its hash is stored) and answers it with its id. */
  insertToken(token: Omit<RefreshTokenRecord, "id">): Promise<RefreshTokenRecord>;
  /** The refresh token whose SHA-256 is `tokenHash`, revoked or not, or null. */
  findTokenByHash(tokenHash: string): Promise<RefreshTokenRecord | null>;
  /** The session's current (non-revoked) token, or null when the whole chain is revoked. */
  activeToken(sessionId: string): Promise<RefreshTokenRecord | null>;
  /** Marks one token revoked at `at` (its `updatedAt` becomes `at`). */
  revokeToken(id: string, at: Date): Promise<void>;
  /** Revokes every not-yet-revoked token descended from `id` (children, their children, …). */
  revokeDescendants(id: string, at: Date): Promise<number>;
  /**
   * The whole state transition of a refresh-token grant, atomically (one database round trip on
   * Postgres): finds the token, waits for the session's lock, re-reads the token, refuses a banned
   * user, refuses a session over the session controls (nothing written either way), and then, by `decideRefresh`: rotates (revoke, insert the child, audit `token_refreshed` and
   * `token_revoked`, mark the session refreshed), reissues (mark refreshed only), refuses (nothing), or
   * treats the token as reused (revoke its descendants and delete the session).
   */
  grantRefresh(input: RefreshGrantInput): Promise<RefreshGrantOutcome>;
  /**
   * The writes of a password sign-in, atomically (one database round trip on Postgres, holding the
   * user's row lock only for its own duration): unless the user is gone or its password hash is no
   * longer `verifiedHash`, stamps the sign-in (`lastSignInAt`, `updatedAt` = `now`, the password hash
   * replaced by `upgradedHash` when given, nothing else touched), records a `login` audit entry (actor:
   * the user as stamped), inserts the session and its first refresh token, and answers the user as
   * stamped, with identities and factors. Null, with nothing written, when refused.
   */
  grantPassword(input: PasswordGrantInput): Promise<UserWithIdentities | null>;
  /** Revokes every refresh token of the user (ban). */
  revokeAllForUser(userId: string, at: Date): Promise<number>;
}

/**
 * The grants commit on their own (one statement each) and record the client's address on their audit
 * entries; a session created is a sign-in by its last method, a rotation is a rotation.
 */
export const sessionStoreTraits: PortTraits<SessionStore> = {
  create: {
    outcome: ([session]) => ({ kind: "signed_in", method: session.amr.at(-1)?.method ?? "unknown" }),
  },
  grantPassword: {
    commits: true,
    addressed: true,
    // Null: refused, nothing written.
    outcome: ([{ session }], user) =>
      user === null ? undefined : { kind: "signed_in", method: session.amr.at(-1)?.method ?? "unknown" },
  },
  grantRefresh: {
    commits: true,
    addressed: true,
    outcome: (_args, outcome) => (outcome.kind === "rotated" ? { kind: "refresh_rotated" } : undefined),
  },
};
