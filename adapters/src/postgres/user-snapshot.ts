import type { UserWithIdentities } from "@authsvc/core/accounts";
import type { Row } from "postgres";
import { withFactors } from "./accounts-store.js";
import type { Queryable } from "./rows.js";

/**
 * The user body of user `u` (joined as `us` to its row of `user_snapshots`, migration 0013) as the
 * three columns `userFromSnapshot` reads: the snapshot while it was made from the row as it is, else
 * the body built from the tables (`case` builds it only then), and the two secrets of the row that a
 * snapshot leaves out. Read outside a transaction that changed the user: its snapshot is rewritten
 * when that transaction commits.
 */
export const userSnapshotOf = (sql: Queryable, namespace: string) => sql`
  case
    when us.user_xmin = u.xmin then us.body
    else ${sql(namespace)}.user_snapshot_body(u.id)
  end as user_body,
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
