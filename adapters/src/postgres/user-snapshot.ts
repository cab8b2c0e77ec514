import type { UserWithIdentities } from "@authsvc/core/accounts";
import type { Row } from "postgres";
import { withFactors } from "./accounts-store.js";

/**
 * The user body of user `u` (joined as `us` to its row of `user_snapshots`, migration 0013) as the
 * three columns `userFromSnapshot` reads: the snapshot while it was made from the row as it is, else
 * the body built from the tables (`case` builds it only then), and the two secrets of the row that a
 * snapshot leaves out. Read outside a transaction that changed the user: its snapshot is rewritten
 * when that transaction commits. Text, for statements made once (`fixedStatement`); `ns` is the
 * quoted namespace.
 */
export const userSnapshotColumns = (ns: string) => `
  case
    when us.user_xmin = u.xmin then us.body
    else ${ns}.user_snapshot_body(u.id)
  end as user_body,
  u.encrypted_password as user_encrypted_password,
  u.reauthentication_token as user_reauthentication_token
`;

/** The user of a row with the columns of `userSnapshotColumns` (the refresh grant's function answers them too). */
export function userFromSnapshot(row: Row): UserWithIdentities {
  // The body is this row's own (parsed from its JSON): completed in place. A copy made as
  // `{ ...row.user_body, encrypted_password, … }` — a spread followed by further properties — is
  // allocated so that V8 (Node 20) promotes it to the old generation: 0.5 KB per copy of a 1.2 KB body
  // measured, against none for a spread alone or in place, and the full collections that clear
  // promoted garbage are what set GET /user's p99.
  const body = row.user_body as Record<string, unknown>;
  body.encrypted_password = row.user_encrypted_password;
  body.reauthentication_token = row.user_reauthentication_token;
  return withFactors(body as Row);
}
