import { failures } from "../failures.js";
import { err, type Result } from "../kernel/index.js";
import type { SessionsDeps } from "./deps.js";
import { defineGrant } from "./grants.js";
import type { Session } from "./session.js";
import { type SessionTokens, signSession } from "./steps/issue-session.js";

const notFound = () => failures.refreshTokenNotFound();
const alreadyUsed = () => failures.refreshTokenAlreadyUsed();

/**
 * The refresh-token grant: exchanges a refresh token for a new access token and the token's child
 * (spec, "States and transitions"). The presented token is revoked and replaced by
 * `tokens.child(presented)`; presenting the previous token again within the reuse interval answers
 * that same child; any other use of a revoked token (with rotation enabled) is treated as theft: it
 * revokes every token descended from it and ends the session, so that the access tokens issued in it
 * stop working at once (every authenticated request checks the session) — committed although the
 * request fails. The reference (v1 tokens) keeps the session; see docs/http-api.md, "Differences".
 */
export async function refreshSession(
  deps: Pick<SessionsDeps, "store" | "clock" | "tokens" | "signer" | "settings"> &
    Partial<Pick<SessionsDeps, "hooks">>,
  input: { refreshToken: string; clientId?: string | undefined; dpopJkt?: string | undefined },
): Promise<Result<SessionTokens>> {
  const presented = input.refreshToken;
  const child = deps.tokens.child(presented);
  const now = deps.clock.now();
  const { rotationEnabled, reuseIntervalMs } = deps.settings.refreshTokens;
  const grant = {
    tokenHash: deps.tokens.hash(presented),
    childHash: deps.tokens.hash(child),
    now,
    rotationEnabled,
    reuseIntervalMs,
    limits: deps.settings.sessions,
    clientId: input.clientId,
    dpopJkt: input.dpopJkt,
  };
  // The whole transition (decideRefresh's, after the session controls of session-limits.ts) in one
  // step of the store: one statement on Postgres.
  const outcome = await deps.store.sessions.grantRefresh(grant);
  switch (outcome.kind) {
    case "not_found":
      return err(notFound());
    case "client_required":
      return err(failures.oauthSessionNeedsItsClient());
    case "client_not_allowed":
      return err(failures.clientNotAllowedForSession());
    case "dpop_key_mismatch":
      return err(failures.refreshDpopKeyMismatch());
    case "banned":
      return err(failures.userBannedAtTokenGrant());
    // The session controls: the session ended (not_after, timebox), went idle, or was superseded.
    case "session_expired":
      return err(failures.sessionExpired());
    case "session_inactive":
      return err(failures.sessionInactive());
    case "session_superseded":
      return err(failures.sessionRevokedByNewerLogin());
    // Reuse has ended the session (committed although this request fails); refusal wrote nothing.
    case "refused":
    case "reused":
      return err(alreadyUsed());
    default: {
      // "reissued" wrote no token: the child answered is the one already stored.
      // A proof on an unbound session's refresh binds the access token it gets (not the session).
      const refreshed: Session = {
        ...outcome.session,
        refreshedAt: now,
        updatedAt: now,
        ...(input.dpopJkt === undefined ? {} : { dpopJkt: input.dpopJkt }),
      };
      // The custom access token hook runs after the rotation committed (issue-session.ts): its
      // failure ends the session, so the child no one received is never usable.
      return signSession(deps, {
        session: refreshed,
        refreshToken: child,
        user: outcome.user,
        method: "token_refresh",
        now,
      });
    }
  }
}

/** `POST /token?grant_type=refresh_token`. */
export const refreshTokenGrant = defineGrant("refresh_token", refreshSession);
