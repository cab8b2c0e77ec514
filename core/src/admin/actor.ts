/**
 * Who makes an admin change: the admin API's service-role token names only its role; a signed-in
 * administrator (the admin console) is also a user, whose id and address go into the audit entry.
 */
export interface AdminActor {
  readonly role: string;
  /** The administrator's user id, when a user (not a bare API key) made the change. */
  readonly id?: string;
  /** The administrator's email (or phone), recorded as the entry's `actor_username`. */
  readonly username?: string;
}

/** The audit entry's actor fields for `actor`. */
export const auditActor = (actor: AdminActor) => ({
  actorId: actor.id ?? "",
  actorUsername: actor.username ?? actor.role,
});
