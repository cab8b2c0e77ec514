import type {
  AuditLog,
  IdentityRepository,
  LeakedPasswords,
  PasswordHasher,
  SignInFailures,
  UserFactors,
  UserRepository,
} from "../accounts/index.js";
import type { HookDispatcher } from "../hooks/index.js";
import type { KernelDeps, KernelSettings, Transactor } from "../kernel/index.js";
import type { SessionStore } from "./ports/session-store.js";
import type { TokenSigner } from "./ports/token-signer.js";
import type { SessionsSettings } from "./settings.js";

/** The repositories sessions use: users and their identities, the session store, audit. */
export interface SessionsRepositories {
  readonly users: UserRepository;
  readonly identities: IdentityRepository;
  readonly audit: AuditLog;
  readonly factors: UserFactors;
  readonly sessions: SessionStore;
}

export type SessionsStore = SessionsRepositories & Transactor<SessionsRepositories>;

/** What a password sign-in uses beside the sessions' repositories: the lockout's counters (`LOCKOUT_*`). */
export interface PasswordSignInRepositories extends SessionsRepositories {
  readonly signInFailures: SignInFailures;
}

export type PasswordSignInStore = PasswordSignInRepositories & Transactor<PasswordSignInRepositories>;

/** The ports the sessions use cases may use. */
export interface SessionsDeps extends KernelDeps {
  readonly settings: KernelSettings & SessionsSettings;
  readonly store: SessionsStore;
  readonly hasher: PasswordHasher;
  /** The leaked-password corpus new passwords are checked against (`PASSWORD_HIBP_*`). */
  readonly leakedPasswords: LeakedPasswords;
  readonly signer: TokenSigner;
  /** Optional where a use case runs hooks: unit tests without it run none. */
  readonly hooks: HookDispatcher;
}
