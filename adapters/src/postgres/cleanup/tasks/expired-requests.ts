import { type CleanupTask, secondsAgo } from "../task.js";
import { removeBatch } from "./remove-batch.js";

/** An hour past its expiry: nothing reads a request that old, and its answer has long been given. */
const GRACE_SECONDS = 60 * 60;
/**
 * A minute past its expiry for an OAuth request no one approved: anyone can make one, unauthenticated,
 * so the table holds no more of them than their TTL lets pile up. The minute lets a consent page that
 * opens one as it expires be told it expired rather than not found.
 */
const UNANSWERED_GRACE_SECONDS = 60;

/**
 * OAuth-server authorization requests past their expiry: `/oauth/authorize` made them, the consent
 * answered or abandoned them, and nothing exchanges them now. A request that was never approved
 * (pending, denied, expired) goes a minute after; an approved one, whose code may still be replayed
 * (and the replay end the session the code started), an hour after.
 */
export const oauthAuthorizations: CleanupTask = {
  name: "oauth_authorizations",
  run: ({ sql, namespace, limit }) =>
    removeBatch(sql, {
      namespace,
      table: "oauth_authorizations",
      key: ["id"],
      stale: sql`(
        expires_at < ${secondsAgo(sql, GRACE_SECONDS)}
        or (expires_at < ${secondsAgo(sql, UNANSWERED_GRACE_SECONDS)} and status <> 'approved')
      )`,
      limit,
    }),
};

/** WebAuthn challenges (passkey ceremonies, WebAuthn factors) an hour past their expiry. */
export const webauthnChallenges: CleanupTask = {
  name: "webauthn_challenges",
  run: ({ sql, namespace, limit }) =>
    removeBatch(sql, {
      namespace,
      table: "webauthn_challenges",
      key: ["id"],
      stale: sql`expires_at < ${secondsAgo(sql, GRACE_SECONDS)}`,
      limit,
    }),
};

/** Pushed authorization requests (RFC 9126) a minute past their expiry: none can be used then. */
export const oauthPushedRequests: CleanupTask = {
  name: "oauth_pushed_requests",
  run: ({ sql, namespace, limit }) =>
    removeBatch(sql, {
      namespace,
      table: "oauth_pushed_requests",
      key: ["id"],
      stale: sql`expires_at < ${secondsAgo(sql, UNANSWERED_GRACE_SECONDS)}`,
      limit,
    }),
};

/** Used client-assertion `jti`s once their assertion expired: a replay of it is refused as expired. */
export const oauthClientAssertionJtis: CleanupTask = {
  name: "oauth_client_assertion_jtis",
  run: ({ sql, namespace, limit }) =>
    removeBatch(sql, {
      namespace,
      table: "oauth_client_assertion_jtis",
      key: ["client_id", "jti"],
      stale: sql`expires_at < ${secondsAgo(sql, UNANSWERED_GRACE_SECONDS)}`,
      limit,
    }),
};
