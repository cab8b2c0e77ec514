import type { PortTraits } from "../../kernel/index.js";

/** The reference's audit actions (and their log types). */
export type AuditAction =
  | "login"
  | "logout"
  | "user_signedup"
  | "user_invited"
  | "user_deleted"
  | "token_refreshed"
  | "token_revoked"
  | "token_exchanged"
  | "token_exchange_refused"
  | "user_modified"
  | "user_repeated_signup"
  | "user_updated_password"
  | "user_recovery_requested"
  | "user_confirmation_requested"
  | "user_reauthenticate_requested"
  | "invite_accepted"
  | "identity_linked"
  | "identity_unlinked"
  | "factor_in_progress"
  | "factor_unenrolled"
  | "challenge_created"
  | "verification_attempted"
  | "factor_deleted"
  | "factor_updated"
  | "passkey_created"
  | "passkey_updated"
  | "passkey_deleted"
  | "user_locked"
  | "user_unlocked";

export interface AuditEntry {
  readonly action: AuditAction;
  readonly actorId: string;
  /** Phone, else email, else the admin role. */
  readonly actorUsername: string;
  readonly traits?: Readonly<Record<string, unknown>>;
  readonly ipAddress?: string | undefined;
  readonly at: Date;
}

/** An entry as stored and as `GET /admin/audit` answers it. */
export interface AuditRecord {
  readonly id: string;
  /** The reference's payload (`auditPayload`): actor_id, actor_username, action, log_type, traits… */
  readonly payload: Readonly<Record<string, unknown>>;
  readonly createdAt: Date;
  /** "" when none was recorded. */
  readonly ipAddress: string;
}

/** The payload fields an audit search may look in (the reference's `query` scopes). */
export type AuditSearchField = "actor_username" | "actor_name" | "action" | "log_type";

/** Appends to `audit_log_entries`; always called inside the transaction of the change it records. */
export interface AuditLog {
  /** Appends one entry, in the caller's transaction (so it commits or rolls back with the change). */
  record(entry: AuditEntry): Promise<void>;
  /**
   * One page of entries, newest first, with the count of all that match. With `search`, only entries
   * where one of the payload `fields` contains `text`, ignoring case (`%` and `_` are plain characters).
   */
  list(options: {
    offset: number;
    limit: number;
    search?: { fields: readonly AuditSearchField[]; text: string } | undefined;
  }): Promise<{ entries: AuditRecord[]; total: number }>;
}

/** Entries carry the client's address; a sign-up or a rotation recorded is one committed. */
export const auditLogTraits: PortTraits<AuditLog> = {
  record: {
    addressed: true,
    outcome: ([entry]) => {
      if (entry.action === "user_signedup") return { kind: "signed_up" };
      if (entry.action === "token_refreshed") return { kind: "refresh_rotated" };
      return undefined;
    },
  },
};
