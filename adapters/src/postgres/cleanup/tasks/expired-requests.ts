import { type CleanupTask, secondsAgo } from "../task.js";
import { removeBatch } from "./remove-batch.js";

/** An hour past its expiry: nothing reads a request that old, and its answer has long been given. */
const GRACE_SECONDS = 60 * 60;

/**
 * OAuth-server authorization requests (and the codes issued on them) an hour past their expiry:
 * `/oauth/authorize` made them, the consent answered or abandoned them, and nothing exchanges them now.
 */
export const oauthAuthorizations: CleanupTask = {
  name: "oauth_authorizations",
  run: ({ sql, namespace, limit }) =>
    removeBatch(sql, {
      namespace,
      table: "oauth_authorizations",
      key: ["id"],
      stale: sql`expires_at < ${secondsAgo(sql, GRACE_SECONDS)}`,
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
