import type { Metadata } from "../accounts/index.js";
import { failures } from "../failures.js";
import { err, ok, type Result } from "../kernel/index.js";

/**
 * The fields of an admin user body (`POST /admin/users`, `PUT /admin/users/{id}`), typed. An absent
 * field is undefined: the HTTP layer has already checked the types and left out JSON `null` and (for
 * every field but `password`) `""`, as the reference decodes them into Go zero values.
 */
export interface AdminUserFields {
  readonly id?: string;
  readonly aud?: string;
  readonly role?: string;
  readonly email?: string;
  readonly phone?: string;
  /** Kept when empty: on update `""` is a (too short) password, not an absent one. */
  readonly password?: string;
  readonly passwordHash?: string;
  readonly emailConfirm?: boolean;
  readonly phoneConfirm?: boolean;
  readonly userMetadata?: Metadata;
  readonly appMetadata?: Metadata;
  readonly banDuration?: string;
}

/** Refuses a password together with a password hash: which one signs the user in would be ambiguous. */
export function refuseAmbiguousPassword(fields: AdminUserFields): Result<AdminUserFields> {
  if (fields.password !== undefined && fields.passwordHash !== undefined) {
    return err(failures.passwordAndHash());
  }
  return ok(fields);
}
