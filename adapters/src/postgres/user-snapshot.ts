import type { UserWithIdentities } from "@authsvc/core";
import type { Row } from "postgres";
import { withFactors } from "./accounts-store.js";
import type { Queryable } from "./rows.js";

/**
 * The user body of user `u` (joined as `us` to its row of `user_snapshots`, migration 0013) as the
 * three columns `userFromSnapshot` reads: the snapshot, built from the rows for a user that has none
 * (`coalesce` calls the builder only then), and the two secrets of the row the snapshot leaves out.
 * Read outside a transaction that changed the user: its snapshot is rewritten when it commits.
 */
export const userSnapshotOf = (sql: Queryable, namespace: string) => sql`
  coalesce(us.body, ${sql(namespace)}.user_snapshot_body(u.id)) as user_body,
  u.encrypted_password as user_encrypted_password,
  u.reauthentication_token as user_reauthentication_token
`;

/** The user of a row with the columns of `userSnapshotOf` (the refresh grant's function answers them too). */
export function userFromSnapshot(row: Row): UserWithIdentities {
  return withFactors({
    ...row.user_body,
    encrypted_password: row.user_encrypted_password,
    reauthentication_token: row.user_reauthentication_token,
  });
}
