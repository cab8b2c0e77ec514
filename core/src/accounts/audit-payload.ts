import type { AuditAction, AuditEntry } from "./ports/audit-log.js";

/** The reference's log type of each action (GoTrue internal/models/audit_log_entry.go). */
export const AUDIT_LOG_TYPES: Readonly<
  Record<AuditAction, "account" | "team" | "token" | "user" | "factor">
> = {
  login: "account",
  logout: "account",
  user_signedup: "team",
  user_invited: "team",
  user_deleted: "team",
  token_refreshed: "token",
  token_revoked: "token",
  token_exchanged: "token",
  token_exchange_refused: "token",
  user_modified: "user",
  user_repeated_signup: "user",
  identity_linked: "user",
  identity_unlinked: "user",
  factor_in_progress: "factor",
  factor_unenrolled: "factor",
  challenge_created: "factor",
  verification_attempted: "factor",
  factor_deleted: "factor",
  factor_updated: "factor",
  user_updated_password: "user",
  user_recovery_requested: "user",
  user_confirmation_requested: "user",
  user_reauthenticate_requested: "user",
  invite_accepted: "account",
  passkey_created: "user",
  passkey_updated: "user",
  passkey_deleted: "user",
  user_locked: "account",
  user_unlocked: "account",
};

/**
 * The `payload` GoTrue writes, so that dashboards and queries written for Supabase read ours:
 * `traits` only when there are any (GoTrue omits the key), `actor_via_sso` always false (no SSO yet).
 */
export function auditPayload(entry: AuditEntry): Record<string, unknown> {
  return {
    actor_id: entry.actorId,
    actor_username: entry.actorUsername,
    actor_via_sso: false,
    action: entry.action,
    log_type: AUDIT_LOG_TYPES[entry.action],
    ...(entry.traits === undefined ? {} : { traits: entry.traits }),
  };
}
