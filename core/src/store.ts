import type { AccountSettingsRepositories } from "./account-settings/deps.js";
import type { AccountsRepositories } from "./accounts/deps.js";
import type { CustomProvidersRepositories } from "./custom-providers/deps.js";
import type { ExternalRepositories } from "./external/deps.js";
import type { HooksRepositories } from "./hooks/index.js";
import type { Transactor } from "./kernel/index.js";
import type { MfaRepositories } from "./mfa/deps.js";
import type { OAuthServerRepositories } from "./oauth-server/deps.js";
import type { PasskeysRepositories } from "./passkeys/deps.js";
import type { PasswordlessRepositories } from "./passwordless/deps.js";
import type { PkceRepositories } from "./pkce/deps.js";
import type { RecoveryRepositories } from "./recovery/deps.js";
import type { SessionsRepositories } from "./sessions/deps.js";
import type { SignupRepositories } from "./signup/deps.js";
import type { VerificationRepositories } from "./verification/deps.js";

/** Every slice's repositories, bound to one connection or transaction. A new slice adds its own here. */
export interface Repositories
  extends Omit<
      AccountsRepositories &
        SessionsRepositories &
        PkceRepositories &
        VerificationRepositories &
        SignupRepositories &
        RecoveryRepositories &
        PasswordlessRepositories &
        AccountSettingsRepositories &
        ExternalRepositories &
        PasskeysRepositories &
        OAuthServerRepositories &
        CustomProvidersRepositories,
      "factors"
    >,
    // MFA's factor store is the full one; the other slices only read factors through it.
    MfaRepositories {}

/**
 * The database. Reads may use the repositories directly; a change that spans several writes runs in
 * `transaction`, which commits when the callback resolves and rolls back when it throws. Expected
 * failures are returned from the callback (so what was written before them commits), never thrown.
 * Hook functions are the store's alone: a hook runs with no transaction of a use case open.
 */
export interface Store extends Repositories, HooksRepositories, Transactor<Repositories> {}
