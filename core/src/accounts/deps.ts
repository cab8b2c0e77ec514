import type { KernelDeps, Transactor } from "../kernel/index.js";
import type { AuditLog } from "./ports/audit-log.js";
import type { IdentityRepository } from "./ports/identity-repository.js";
import type { LeakedPasswords } from "./ports/leaked-passwords.js";
import type { PasswordHasher } from "./ports/password-hasher.js";
import type { UserFactors } from "./ports/user-factors.js";
import type { UserRepository } from "./ports/user-repository.js";

/** The repositories of accounts, bound to one connection or transaction. */
export interface AccountsRepositories {
  readonly users: UserRepository;
  readonly identities: IdentityRepository;
  readonly audit: AuditLog;
  readonly factors: UserFactors;
}

/** Reads through the repositories; several writes run in one `transaction`. */
export type AccountsStore = AccountsRepositories & Transactor<AccountsRepositories>;

/** The ports the accounts use cases and steps may use. */
export interface AccountsDeps extends KernelDeps {
  readonly store: AccountsStore;
  readonly hasher: PasswordHasher;
  /** The leaked-password corpus new passwords are checked against (`PASSWORD_HIBP_*`). */
  readonly leakedPasswords: LeakedPasswords;
}
