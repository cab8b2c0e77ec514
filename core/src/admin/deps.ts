import type { MfaRepositories, MfaStore } from "../mfa/index.js";
import type { VerificationDeps } from "../verification/index.js";

/** Admin use cases touch every table (a ban revokes sessions, an invite sends a mail, a soft delete drops factors). */
export type AdminRepositories = MfaRepositories;
export type AdminStore = MfaStore;
export interface AdminDeps extends Omit<VerificationDeps, "store"> {
  readonly store: AdminStore;
}
